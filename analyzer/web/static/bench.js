// The what-if bench: a form built from the game's rule parameters, a question followed
// with its progress, and every difference from the rules today as a chart and a table.
"use strict";

(() => {
  const {call, element, Question, progress, showError} = dicelab;
  const $ = (id) => document.getElementById(id);
  let games = [];
  const question = new Question((job) => progress($("bench-progress"), job));

  function game() { return games.find((g) => g.id === $("bench-game").value); }

  function valueInput(param) {
    if (param.choices) {
      const select = element("select", {name: "value", "aria-label": "new value"});
      for (const choice of param.choices) {
        if (choice.value !== param.default) {
          select.append(element("option", {value: choice.value, text: choice.words}));
        }
      }
      return select;
    }
    return element("input", {name: "value", type: "text", inputmode:
      param.kind === "weights" ? "text" : "decimal", value: param.default,
      "aria-label": "new value", size: 14});
  }

  function describe(row, param) {
    const about = row.querySelector(".about");
    about.replaceChildren(`Today: ${param.default_words}. Accepted: ${param.accepted}.`);
    if (param.assumed) {
      about.append(element("span", {class: "assumed", title:
        "the rules do not settle this; dicelab assumes today's value", text: "ASSUMED"}));
    }
  }

  function changeRow() {
    const params = game().params;
    const rule = element("select", {name: "rule", "aria-label": "rule"});
    for (const param of params) rule.append(element("option", {value: param.name, text: param.label}));
    const row = element("div", {class: "change"},
      element("label", {}, "Rule", rule), element("label", {}, "New value"),
      element("button", {type: "button", class: "remove", text: "Remove"}),
      element("p", {class: "about"}));
    const refresh = () => {
      const param = params.find((p) => p.name === rule.value);
      row.children[1].replaceChildren("New value", valueInput(param));
      describe(row, param);
    };
    rule.addEventListener("change", refresh);
    row.querySelector(".remove").addEventListener("click", () => {
      if ($("bench-changes").children.length > 1) row.remove();
    });
    refresh();
    return row;
  }

  function chooseGame() {
    const g = game();
    const players = $("bench-players");
    players.replaceChildren();
    for (let n = g.players.low; n <= g.players.high; n++) {
      players.append(element("option", {value: n, text: n === 1 ? "1 (solo)" : String(n),
                                        selected: n === g.players.default}));
    }
    $("bench-changes").replaceChildren(changeRow());
  }

  function form() {
    const changes = {};
    for (const row of $("bench-changes").children) {
      changes[row.querySelector("[name=rule]").value] = row.querySelector("[name=value]").value;
    }
    return {kind: "whatif", game: $("bench-game").value, players: $("bench-players").value,
            changes};
  }

  function figureWords(metric) {
    const seat = /^win_rate_seat_(\d+)$/.exec(metric);
    if (seat) return `seat ${seat[1]}'s share of wins`;
    return game().figures[metric] || metric.replaceAll("_", " ");
  }

  function isRate(metric) { return /rate|^p_/.test(metric); }

  function shown(value, metric, difference = false) {
    if (value === null || value === undefined) return "";
    if (isRate(metric)) return `${difference && value > 0 ? "+" : ""}${(100 * value).toFixed(1)}${difference ? " pp" : "%"}`;
    return `${difference && value > 0 ? "+" : ""}${value.toFixed(2)}`;
  }

  function rowsOf(answer) {
    const rows = answer.tables.variants || Object.values(answer.tables)[0] || [];
    const base = new Map(rows.filter((r) => r.variant === "baseline").map((r) => [r.metric, r]));
    return rows.filter((r) => r.variant !== "baseline")
      .map((r) => ({...r, words: figureWords(r.metric), baseline: base.get(r.metric)}));
  }

  function table(rows) {
    const head = element("tr", {}, ...["Figure", "Today", "Changed", "Difference", "95% interval"]
      .map((t) => element("th", {scope: "col", text: t})));
    const body = rows.map((r) => element("tr", {},
      element("th", {scope: "row", text: r.words}),
      element("td", {text: shown(r.baseline ? r.baseline.value : null, r.metric)}),
      element("td", {text: shown(r.value, r.metric)}),
      element("td", {"data-metric": r.metric, class: "difference", text: shown(r.diff, r.metric, true)}),
      element("td", {text: `${shown(r.diff_ci95_low, r.metric, true)} to ${shown(r.diff_ci95_high, r.metric, true)}`})));
    $("bench-table").replaceChildren(element("thead", {}, head), element("tbody", {}, ...body));
  }

  function chart(rows) {
    // One line a figure, each on its own scale around zero (the figures differ in units):
    // the difference a dot, its 95% interval a line, zero a dashed tick, the difference
    // written at the right.
    const svg = $("bench-chart");
    const ns = "http://www.w3.org/2000/svg";
    const draw = (tag, attributes, text) => {
      const node = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    svg.replaceChildren();
    const width = 640, left = 250, right = 520, step = 30, mid = (left + right) / 2;
    svg.setAttribute("viewBox", `0 0 ${width} ${rows.length * step + 10}`);
    rows.forEach((r, i) => {
      const y = 20 + i * step;
      const reach = Math.max(Math.abs(r.diff_ci95_low), Math.abs(r.diff_ci95_high),
                             Math.abs(r.diff)) || 1;
      const x = (v) => mid + (v / reach) * (right - left) / 2;
      draw("text", {x: 4, y: y + 4}, r.words);
      draw("line", {x1: mid, x2: mid, y1: y - 10, y2: y + 10, stroke: "#777", "stroke-dasharray": "3 2"});
      draw("line", {x1: x(r.diff_ci95_low), x2: x(r.diff_ci95_high), y1: y, y2: y,
                    stroke: "#111", "stroke-width": 2});
      draw("circle", {cx: x(r.diff), cy: y, r: 4.5, fill: "#111",
                      "data-metric": r.metric, "data-value": r.diff});
      draw("text", {x: right + 12, y: y + 4}, shown(r.diff, r.metric, true));
    });
  }

  // The command line's notes in the page's words: the variant is the page's own table, so
  // the lines naming it go; a figure is named as the table names it, and the assumed rules
  // in force as the form names them, in one line.
  function notesInWords(notes) {
    const params = new Map(game().params.map((p) => [p.name, p]));
    const assumed = [], kept = [];
    for (const note of notes) {
      if (/^reference: /.test(note) || /^\S+: changes /.test(note)) continue;
      const rule = /^(\w+) = (.+?) is an assumed rule parameter: (?:UNCONFIRMED \(([^)]*)\))?/.exec(note);
      if (rule && params.has(rule[1])) {
        const param = params.get(rule[1]);
        const choice = (param.choices || []).find((c) => c.value === rule[2]);
        assumed.push(`${param.label}: ${choice ? choice.words : rule[2]}` + (rule[3] ? ` (${rule[3]})` : ""));
        continue;
      }
      const figure = /^(\w+): /.exec(note);
      kept.push(figure && game().figures[figure[1]]
        ? `${game().figures[figure[1]]}: ${note.slice(figure[0].length)}` : note);
    }
    if (assumed.length) kept.push(`Assumed, as the rules text does not settle them: ${assumed.join("; ")}.`);
    return kept;
  }

  function show(job) {
    $("bench-progress").hidden = true;
    if (job.state === "failed") return showError($("bench-error"), job.error);
    if (job.state !== "done") return;
    const rows = rowsOf(job.answer);
    $("bench-title").textContent = job.answer.title;
    chart(rows);
    table(rows);
    $("bench-csv").href = question.download("csv");
    $("bench-json").href = question.download("json");
    $("bench-notes").replaceChildren(...notesInWords(job.answer.notes || []).map((n) => element("li", {text: n})));
    $("bench-result").hidden = false;
  }

  async function run(event) {
    event.preventDefault();
    showError($("bench-error"), "");
    $("bench-result").hidden = true;
    $("bench-run").disabled = true;
    $("bench-cancel").hidden = false;
    try {
      show(await question.ask(form()));
    } catch (error) {
      $("bench-progress").hidden = true;
      showError($("bench-error"), error.message);
    } finally {
      $("bench-run").disabled = false;
      $("bench-cancel").hidden = true;
    }
  }

  async function start() {
    games = await call("GET", "/api/games");
    for (const g of games) $("bench-game").append(element("option", {value: g.id, text: g.title}));
    $("bench-game").addEventListener("change", chooseGame);
    $("bench-add").addEventListener("click", () => $("bench-changes").append(changeRow()));
    $("bench-form").addEventListener("submit", run);
    $("bench-cancel").addEventListener("click", async () => {
      await question.cancel();
      $("bench-progress").hidden = true;
      showError($("bench-error"), "Cancelled.");
    });
    chooseGame();
  }

  document.addEventListener("DOMContentLoaded", () => start().catch(
    (error) => showError($("bench-error"), error.message)));
})();
