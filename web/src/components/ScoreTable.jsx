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
          const own = name === score.method;
          // The quick count's "filled" and "stones left over" rows mean little without a word on how it counts.
          const note = name === "quick-count" && (shown.includes("filled") || shown.includes("overflow"));
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
                <tbody>
                  {shown.map((f) => (
                    <tr key={f}>
                      <th scope="row">{tn("fields", f) || f}</th>
                      <td>{num(b[f] ?? 0)}</td>
                      <td>{num(w[f] ?? 0)}</td>
                    </tr>
                  ))}
                  <tr class="total">
                    <th scope="row">{tn("fields", "total")}</th>
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
