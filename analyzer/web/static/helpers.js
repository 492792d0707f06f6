// The CloverUp and Sly Dice helpers: dice set by clicking their faces, the exact answer
// asked again at every change (a new question cancels the old one).
"use strict";

(() => {
  const {element, Question, progress, showError} = dicelab;
  const $ = (id) => document.getElementById(id);
  const CLOVER = "C";

  // A row of face buttons for one die; `faces` its faces, `none` whether it may be unset.
  function dieRow(label, faces, onChange, none = false) {
    const row = element("div", {class: "die-row", role: "group", "aria-label": label},
                        element("span", {text: label}));
    let value = none ? "" : null;
    const buttons = faces.map((face) => element("button", {
      type: "button", class: "face", "aria-pressed": "false", "data-face": face,
      "aria-label": `${label}: ${face === CLOVER ? "clover" : face}`,
      text: face === CLOVER ? "\u2618" : face}));
    for (const button of buttons) {
      button.addEventListener("click", () => {
        value = value === button.dataset.face && none ? "" : button.dataset.face;
        for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.face === value));
        onChange();
      });
    }
    row.append(...buttons);
    row.value = () => value;
    return row;
  }

  async function answer(question, box, error, form, show) {
    showError(error, "");
    try {
      const job = await question.ask(form);
      box.hidden = true;
      if (job.state === "failed") showError(error, job.error);
      if (job.state === "done") show(job.answer);
    } catch (problem) {
      box.hidden = true;
      showError(error, problem.message);
    }
  }

  function percent(p) { return `${(100 * p).toFixed(1)}%`; }

  function cloverup() {
    const question = new Question((job) => progress($("clover-progress"), job));
    const dice = [1, 2, 3].map((k) => dieRow(`Die ${k}`, ["1", "2", "3", "4", "5", "6", CLOVER], ask));
    $("clover-dice").append(...dice);
    for (let r = 0; r <= 10; r++) {
      $("clover-left").append(element("option", {value: r, text: r, selected: r === 2}));
    }
    $("clover-left").addEventListener("change", ask);
    $("clover-double-six").addEventListener("change", ask);
    function ask() {
      const faces = dice.map((d) => d.value());
      if (faces.includes(null)) return;
      $("clover-answer").textContent = "";
      answer(question, $("clover-progress"), $("clover-error"), {
        kind: "cloverup-keep", dice: faces.join(" "), rerolls_left: $("clover-left").value,
        double_six: $("clover-double-six").checked,
      }, (a) => {
        const choice = a.best_choice === "stop" ? "stop and score these dice" : a.best_choice;
        $("clover-answer").textContent = `Best play: ${choice}. Expected turn score ` +
          `${a.expected_score.toFixed(2)} points; instant-win chance ${percent(a.p_instant_win)}.`;
      });
    }
  }

  function claimWords(name) { return name.replaceAll("-", " "); }

  function rows(table, head, records, cells, chosen) {
    table.replaceChildren(
      element("thead", {}, element("tr", {}, ...head.map((t) => element("th", {scope: "col", text: t})))),
      element("tbody", {}, ...records.map((r) => element("tr", {class: chosen(r) ? "chosen" : null},
        ...cells(r).map((c, i) => element(i ? "td" : "th", i ? {text: c} : {scope: "row", text: c}))))));
  }

  function slyDice() {
    const odds = new Question((job) => progress($("sly-progress"), job));
    const claims = new Question((job) => progress($("sly-progress"), job));
    const faces = ["1", "2", "3", "4", "5", "6"];
    const common = [1, 2, 3].map((k) => dieRow(`Common die ${k}`, faces, ask));
    const locked = [1, 2].map((k) => dieRow(`Locked die ${k}`, faces, ask, true));
    $("sly-dice").append(...common, ...locked);
    let equilibrium = null;
    $("sly-claim").addEventListener("change", () => showClaim());

    function showClaim() {
      if (!equilibrium) return;
      const name = $("sly-claim").value;
      const all = equilibrium.tables.claims;
      const row = all.find((r) => r.claim === name) || all[0];
      $("sly-answer").textContent = `A claim of ${claimWords(row.claim)} is true ` +
        `${percent(row.p_true_given_claim)} of the time; at the equilibrium the next player ` +
        `accuses it ${percent(row.accuse_probability)} of the time.`;
      rows($("sly-claims"), ["Claim", "Chance it is made", "True", "Accused"], all,
           (r) => [claimWords(r.claim), percent(r.p_claim), percent(r.p_true_given_claim),
                   percent(r.accuse_probability)], (r) => r.claim === row.claim);
    }

    function ask() {
      const dice = common.map((d) => d.value());
      if (dice.includes(null)) return;
      const form = {common: dice.join(","), locked: locked.map((d) => d.value()).filter(Boolean).join(",")};
      $("sly-answer").textContent = "";
      answer(odds, $("sly-progress"), $("sly-error"), {kind: "sly-odds", ...form}, (a) => {
        rows($("sly-odds"), ["Card", "Chance", "Expected points"], a.tables.cards,
             (r) => [claimWords(r.card), percent(r.probability), r.expected_points.toFixed(2)],
             () => false);
      });
      answer(claims, $("sly-progress"), $("sly-error"), {kind: "sly-equilibrium", ...form}, (a) => {
        equilibrium = a;
        const kept = $("sly-claim").value;
        $("sly-claim").replaceChildren(...a.tables.claims.map((r) => element("option", {
          value: r.claim, text: claimWords(r.claim), selected: r.claim === kept})));
        showClaim();
      });
    }
  }

  document.addEventListener("DOMContentLoaded", () => { cloverup(); slyDice(); });
})();
