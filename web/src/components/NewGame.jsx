// The new-game form: size, rules, komi, handicap and its placement, clock,
// opponent (the bot at a level, a person through an invitation link, or both
// sides on this screen) and the creator's colour.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.js";
import { clockSettings, num, t, tn } from "../i18n.js";
import { ErrorNote } from "./ErrorNote.jsx";

const CLOCK_FIELDS = {
  none: [],
  absolute: ["main"],
  byoyomi: ["main", "period", "periods"],
  canadian: ["main", "period", "stones"],
  fischer: ["main", "increment", "max"],
  simple: ["perMove"],
};

/** The time a move gets, on which "correspondence" is decided (docs/correspondence.md, as the server counts it). */
export function perMoveSeconds(clock) {
  const share = (clock.main || 0) / 120;
  if (clock.type === "simple") return clock.per_move;
  if (clock.type === "fischer") return share + (clock.increment || 0);
  if (clock.type === "byoyomi") return share + (clock.period || 0);
  if (clock.type === "canadian") return share + (clock.period || 0) / Math.max(1, clock.stones || 1);
  if (clock.type === "absolute") return share;
  return 0;
}

const CLOCK_LABELS = {
  none: "clockNone",
  absolute: "clockAbsolute",
  byoyomi: "clockByoyomi",
  canadian: "clockCanadian",
  fischer: "clockFischer",
  simple: "clockSimple",
};

const ENGINE = "engine:";

function isEngine(value) {
  return typeof value === "string" && value.startsWith(ENGINE);
}

function levelValue(level) {
  if (level && typeof level === "object") return level.name ?? level.id ?? level.level;
  return level;
}

export function NewGame({ onCreated }) {
  const [info, setInfo] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({
    sizeChoice: "9",
    customSize: 7,
    rules: "french",
    komi: "",
    handicap: 0,
    placement: "fixed",
    clockType: "none",
    main: 10,
    period: 30,
    periods: 5,
    stones: 25,
    increment: 10,
    max: "",
    perMove: 24,
    preset: "",
    weekendPause: null, // null: the server's default (on for a correspondence clock)
    noVacation: false,
    opponent: "bot",
    botLevel: null,
    rated: false,
    color: "B",
  });

  // The fields the person has set. The server's answer to api/info may come after the first clicks (a slow server
  // or connection): its defaults fill only the other fields. It put the opponent back to the bot when it came after
  // a click on "both sides on this screen", and a game meant for one screen started against the computer (CI saw
  // it: the second stone of the "local" game was Black's again, after the bot's answer).
  const touched = useRef(new Set());

  // "A bot of my rank" (GET api/bots: the ranked level nearest to the caller's strength), preselected when the
  // caller has a rank and has not chosen a level yet.
  const [forMe, setForMe] = useState(null);

  useEffect(() => {
    Promise.all([api.info(), api.bots().catch(() => null)])
      .then(([data, bots]) => {
        setInfo(data);
        const nearest = bots?.for_me && data.bot_levels?.includes(bots.for_me) ? bots.for_me : null;
        setForMe(nearest);
        const hasBots = !!data.bot_levels?.length;
        setForm((f) => {
          const mine = touched.current;
          const first = hasBots ? nearest ?? levelValue(data.bot_levels[0]) : null;
          return {
            ...f,
            rules: mine.has("rules") ? f.rules : data.default_ruleset || f.rules,
            botLevel: mine.has("botLevel") ? f.botLevel : first,
            // The bot stays chosen only where the server has one.
            opponent:
              mine.has("opponent") && (hasBots || f.opponent !== "bot") ? f.opponent : hasBots ? "bot" : "invite",
          };
        });
      })
      .catch(setError);
  }, []);

  const set = (key) => (evt) => {
    const target = evt.currentTarget;
    touched.current.add(key);
    setForm((f) => ({ ...f, [key]: target.value }));
  };

  const ruleset = info?.rulesets?.[form.rules];
  const placementChoice = ruleset?.handicap_placement || "either";
  const handicap = Number(form.handicap);
  // The komi the server will apply when the field is left empty: a handicap game gets the
  // ruleset's handicap komi where it has one (0.5 under the French rules), else the usual one.
  const defaultKomi = ruleset
    ? handicap >= 2 && ruleset.handicap_komi !== null && ruleset.handicap_komi !== undefined
      ? ruleset.handicap_komi
      : ruleset.default_komi
    : null;
  const botAvailable = !!info?.bot_levels?.length;

  async function submit(evt) {
    evt.preventDefault();
    const size = form.sizeChoice === "custom" ? Number(form.customSize) : Number(form.sizeChoice);
    const clock = builtClock();
    const body = {
      size,
      rules: form.rules,
      komi: form.komi === "" ? null : Number(form.komi),
      handicap,
      placement: handicap >= 2 ? (placementChoice === "either" ? form.placement : placementChoice) : null,
      clock,
      opponent: form.opponent,
      color: form.color,
      bot_level: form.opponent === "bot" && !isEngine(form.botLevel) ? form.botLevel : null,
      // A game on one screen is never rated; against the bot it is (each level is a rated player).
      rated: form.opponent !== "local" && form.rated,
    };
    // A GTP engine offered by the server (keima serve --engine) is chosen in the same list as the levels.
    if (form.opponent === "bot" && isEngine(form.botLevel)) body.engine = form.botLevel.slice(ENGINE.length);
    setBusy(true);
    setError(null);
    try {
      const created = await api.create(body);
      onCreated(created);
    } catch (exc) {
      setError(exc);
      setBusy(false);
    }
  }

  // The clock object sent (docs/web-api.md): a preset as the server lists it, or the fields below.
  function builtClock() {
    const preset = form.preset && info?.clock_presets?.[form.preset];
    let clock = { type: form.clockType };
    if (preset) clock = { ...preset };
    else {
      for (const field of CLOCK_FIELDS[form.clockType]) {
        if (field === "max" && form.max === "") clock.max = null; // no cap
        else if (field === "perMove") clock.per_move = Number(form.perMove) * 3600;
        else clock[field] = field === "main" ? Number(form[field]) * 60 : Number(form[field]);
      }
    }
    if (clock.type !== "none") {
      if (form.weekendPause !== null) clock.weekend_pause = form.weekendPause;
      if (form.noVacation) clock.vacation = false;
    }
    return clock;
  }
  const shownClock = builtClock();
  const correspondence = shownClock.type !== "none" && perMoveSeconds(shownClock) >= 3600;
  const weekendChecked = form.weekendPause ?? (shownClock.weekend_pause ?? correspondence);

  const numberField = (key, label, attrs) => (
    <label class="field">
      <span>{label}</span>
      <input type="number" name={key} value={form[key]} onInput={set(key)} {...attrs} />
    </label>
  );

  return (
    <form class="new-game card" onSubmit={submit} aria-labelledby="new-game-title">
      <h2 id="new-game-title">{t("newGame")}</h2>
      <fieldset>
        <legend>{t("boardSize")}</legend>
        <div class="choices">
          {["9", "13", "19", "custom"].map((s) => (
            <label key={s} class="choice">
              <input
                type="radio"
                name="size"
                value={s}
                checked={form.sizeChoice === s}
                onChange={set("sizeChoice")}
              />
              {s === "custom" ? t("custom") : `${s}×${s}`}
            </label>
          ))}
        </div>
        {form.sizeChoice === "custom" &&
          numberField("customSize", t("customSize"), { min: info?.sizes?.min ?? 2, max: info?.sizes?.max ?? 25 })}
      </fieldset>

      <fieldset>
        <legend>{t("ruleset")}</legend>
        <label class="field">
          <span>{t("ruleset")}</span>
          <select name="rules" value={form.rules} onChange={set("rules")}>
            {Object.keys(info?.rulesets || { french: {} }).map((name) => (
              <option key={name} value={name}>
                {tn("rulesetNames", name) ?? name}
              </option>
            ))}
          </select>
        </label>
        {numberField("komi", t("komi"), {
          step: 0.5,
          min: -100,
          max: 100,
          // Short enough for the field on a phone: a long placeholder is cut without its end.
          placeholder: defaultKomi !== null ? t("komiPlaceholder", num(defaultKomi)) : t("komiDefault"),
          title: t("komiDefault"),
        })}
        <label class="field">
          <span>{t("handicap")}</span>
          <select name="handicap" value={form.handicap} onChange={set("handicap")}>
            {[0, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        {handicap >= 2 && (
          <label class="field">
            <span>{t("placement")}</span>
            <select
              name="placement"
              value={placementChoice === "either" ? form.placement : placementChoice}
              onChange={set("placement")}
              disabled={placementChoice !== "either"}
            >
              <option value="fixed">{t("fixed")}</option>
              <option value="free">{t("free")}</option>
            </select>
          </label>
        )}
      </fieldset>

      <fieldset>
        <legend>{t("clock")}</legend>
        <label class="field">
          <span>{t("clockPreset")}</span>
          <select name="preset" value={form.preset} onChange={set("preset")} data-testid="clock-preset">
            <option value="">{t("presetCustom")}</option>
            <optgroup label={t("presetsCorrespondence")}>
              {Object.entries(info?.clock_presets || {}).map(([key, spec]) => (
                <option key={key} value={key}>
                  {clockSettings({ ...spec, weekend_pause: false })}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        {!form.preset && (
        <label class="field">
          <span>{t("clock")}</span>
          <select name="clock" value={form.clockType} onChange={set("clockType")}>
            {(info?.clock_types || Object.keys(CLOCK_FIELDS)).map((c) => (
              <option key={c} value={c}>
                {t(CLOCK_LABELS[c] || c)}
              </option>
            ))}
          </select>
        </label>
        )}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("main") &&
          numberField("main", t("mainTime"), {
            // Byo-yomi and Canadian timing may start in overtime (no main time), a common setting.
            min: form.clockType === "byoyomi" || form.clockType === "canadian" ? 0 : 0.1,
            step: 0.1,
          })}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("period") && numberField("period", t("periodTime"), { min: 1 })}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("periods") && numberField("periods", t("periods"), { min: 1 })}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("stones") && numberField("stones", t("stonesPerPeriod"), { min: 1 })}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("increment") && numberField("increment", t("increment"), { min: 0 })}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("max") &&
          numberField("max", t("fischerMax"), { min: 1, placeholder: t("noCap") })}
        {!form.preset && CLOCK_FIELDS[form.clockType].includes("perMove") &&
          numberField("perMove", t("perMove"), { min: 0.1, step: 0.1 })}
        {shownClock.type !== "none" && (
          <label class="choice">
            <input
              type="checkbox"
              name="weekend-pause"
              checked={weekendChecked}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setForm((f) => ({ ...f, weekendPause: checked }));
              }}
              data-testid="weekend-pause"
            />
            {t("weekendPause")}
          </label>
        )}
        {correspondence && (
          <label class="choice">
            <input
              type="checkbox"
              name="no-vacation"
              checked={form.noVacation}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setForm((f) => ({ ...f, noVacation: checked }));
              }}
            />
            {t("noVacation")}
          </label>
        )}
      </fieldset>

      <fieldset>
        <legend>{t("opponent")}</legend>
        <div class="choices column">
          {[
            ["bot", t("oppBot")],
            ["invite", t("oppInvite")],
            ["open", t("oppOpen")],
            ["local", t("oppLocal")],
          ].map(([value, label]) => (
            <label key={value} class="choice">
              <input
                type="radio"
                name="opponent"
                value={value}
                checked={form.opponent === value}
                disabled={value === "bot" && !botAvailable}
                onChange={set("opponent")}
              />
              {label}
            </label>
          ))}
        </div>
        {form.opponent === "bot" && botAvailable && (
          <>
            <label class="field">
              <span>{t("botLevel")}</span>
              <select name="bot_level" value={form.botLevel} onChange={set("botLevel")}>
                {info.bot_levels.map((level) => {
                  const value = levelValue(level);
                  return (
                    <option key={value} value={value}>
                      {tLevel(level)}
                    </option>
                  );
                })}
                {(info.engines || []).map((name) => (
                  <option key={`engine-${name}`} value={ENGINE + name}>
                    {t("engineOption", name)}
                  </option>
                ))}
              </select>
            </label>
            {forMe && (
              <p class="hint bot-for-me" data-testid="bot-for-me">
                {form.botLevel === forMe ? (
                  t("botForMeChosen", forMe)
                ) : (
                  <>
                    {t("botForMe", forMe)}{" "}
                    <button
                      type="button"
                      class="linkish"
                      onClick={() => {
                        touched.current.add("botLevel");
                        setForm((f) => ({ ...f, botLevel: forMe }));
                      }}
                    >
                      {t("botForMeChoose")}
                    </button>
                  </>
                )}
              </p>
            )}
          </>
        )}
        {form.opponent !== "local" && (
          <label class="field">
            <span>{t("yourColor")}</span>
            <select name="color" value={form.color} onChange={set("color")}>
              <option value="B">{t("colorBlack")}</option>
              <option value="W">{t("colorWhite")}</option>
              <option value="random">{t("colorRandom")}</option>
            </select>
          </label>
        )}
        {form.opponent !== "local" && (
          <label class="choice">
            <input
              type="checkbox"
              name="rated"
              checked={form.rated}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setForm((f) => ({ ...f, rated: checked }));
              }}
              data-testid="rated"
            />
            {t("ratedOption")}
          </label>
        )}
      </fieldset>

      <ErrorNote error={error} what={t("settingsRefused")} />
      <button type="submit" class="primary" disabled={busy || !info}>
        {busy ? t("creating") : t("start")}
      </button>
    </form>
  );
}

// A ranked level is named by the rank it plays at ("15k"): said in words ("15k, plays like a 15 kyu").
const RANKED = /^(\d+)k$/;

function tLevel(level) {
  const value = String(levelValue(level));
  const ranked = RANKED.exec(value);
  if (ranked) return t("rankedLevel", value, Number(ranked[1]));
  return tn("levels", value) ?? (level?.label || value);
}
