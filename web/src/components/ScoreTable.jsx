// The count of every method side by side, each with its breakdown.
import { num, t, tn } from "../i18n.js";

const ORDER = ["area", "territory", "quick-count", "japanese"];
const FIELDS = [
  "stones",
  "territory",
  "captures",
  "dead",
  "pass_stones",
  "extra_pass_stone",
  "komi",
  "handicap_bonus",
  "filled",
  "overflow",
];

// How each row makes the total: added ("+"), taken away ("-"), or only explaining another row ("held": the
// stones each side holds in the FFG quick count are put into the opponent's territory, where they show as
// "filled" and "stones left over"; adding them too would count them twice). Every other method adds its rows.
const QUICK_OPS = {
  captures: "held",
  dead: "held",
  pass_stones: "held",
  extra_pass_stone: "held",
  territory: "+",
  filled: "-",
  overflow: "+",
  komi: "+",
};
const opOf = (method, field) => (method === "quick-count" ? QUICK_OPS[field] || "+" : "+");
const SIGN = { "+": "+", "-": "\u2212" };

function Row({ method, field, b, w }) {
  const op = opOf(method, field);
  return (
    <tr class={op === "held" ? "held" : "counted"} data-field={field} data-op={op}>
      <th scope="row">
        {op !== "held" && (
          <span class="op" aria-hidden="true">
            {SIGN[op]}{" "}
          </span>
        )}
        {op === "-" && <span class="visually-hidden">{t("minus")} </span>}
        {tn("fields", field) || field}
      </th>
      <td>{num(b[field] ?? 0)}</td>
      <td>{num(w[field] ?? 0)}</td>
    </tr>
  );
}

export function ScoreTable({ score, final }) {
  if (!score?.methods) return null;
  const names = [
    ...ORDER.filter((n) => n in score.methods),
    ...Object.keys(score.methods).filter((n) => !ORDER.includes(n)),
  ];
  return (
    <section class="score" aria-labelledby="score-title" data-testid="score">
      <h3 id="score-title">{final ? t("finalCount") : t("markingCount")}</h3>
      <div class="methods">
        {names.map((name) => {
          const m = score.methods[name];
          const b = m.breakdown?.B || {};
          const w = m.breakdown?.W || {};
          const shown = FIELDS.filter((f) => b[f] || w[f]);
          const held = shown.filter((f) => opOf(name, f) === "held");
          const counted = shown.filter((f) => opOf(name, f) !== "held");
          const own = name === score.method;
          // The quick count's held stones, "filled" and "stones left over" mean little without a word on how it counts.
          const note = name === "quick-count" && (held.length > 0 || shown.includes("filled") || shown.includes("overflow"));
          return (
            <div key={name} class="method-box">
              <table class={`method${own ? " own" : ""}`} data-method={name}>
                <caption>
                  <span class="method-name">{tn("methodNames", name) || name}</span>
                  {own && <span class="badge">{t("rulesMethod")}</span>}
                  <span class="method-result">{t("resultText", m.result)}</span>
                </caption>
                <thead>
                  <tr>
                    <td></td>
                    <th scope="col">{t("black")}</th>
                    <th scope="col">{t("white")}</th>
                  </tr>
                </thead>
                {held.length > 0 && (
                  <tbody class="held-rows" data-testid="held-rows">
                    <tr class="group">
                      <th scope="rowgroup" colSpan={3}>
                        {t("heldStones")}
                      </th>
                    </tr>
                    {held.map((f) => (
                      <Row key={f} method={name} field={f} b={b} w={w} />
                    ))}
                  </tbody>
                )}
                <tbody>
                  {counted.map((f) => (
                    <Row key={f} method={name} field={f} b={b} w={w} />
                  ))}
                  <tr class="total" data-op="=">
                    <th scope="row">
                      <span class="op" aria-hidden="true">
                        ={" "}
                      </span>
                      {tn("fields", "total")}
                    </th>
                    <td>{num(m.black)}</td>
                    <td>{num(m.white)}</td>
                  </tr>
                </tbody>
              </table>
              {note && (
                <p class="method-note" data-testid="quick-count-note">
                  {t("quickCountNote")}
                </p>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
