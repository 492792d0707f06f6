// The Clever coach: the score sheet drawn box by box (clicking a box writes the sheet
// document), the dice entered by clicking faces, every choice ranked by the command
// line's advice, the best one shown on the sheet, and a choice taken as the coach takes
// it, with undo.
"use strict";

(() => {
  const {call, element, Question, progress, showError} = dicelab;
  const $ = (id) => document.getElementById(id);
  const UNIT = 34;  // px a box
  const PLACES = [["roll", "rolled"], ["fields", "on my fields"], ["platter", "on the platter"]];
  let layout = null;
  const state = {doc: null, round: 1, phase: "active1", faces: [], places: [], taken: []};
  const history = [];
  const scoring = new Question(() => {});
  const advice = new Question((job) => progress($("coach-progress"), job));
  const preview = new Question(() => {});
  let ranked = null;  // the last advice's choices
  let best = new Set();  // the boxes the best choice marks

  const copy = (x) => JSON.parse(JSON.stringify(x));
  // A loaded sheet with the fields it leaves out (each optional) as the blank sheet has them.
  const filled = (doc, blank) => (doc && typeof doc === "object" && !Array.isArray(doc) &&
    blank && typeof blank === "object" && !Array.isArray(blank)) ?
    Object.fromEntries([...new Set([...Object.keys(blank), ...Object.keys(doc)])]
      .map((k) => [k, k in doc ? filled(doc[k], blank[k]) : copy(blank[k])])) : doc;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // --- the sheet document, edited box by box ---------------------------------------
  function at(doc, field) {
    return field.split(".").reduce((node, key) => node[key], doc);
  }

  function put(doc, field, value) {
    const keys = field.split("."), last = keys.pop();
    keys.reduce((node, key) => node[key], doc)[last] = value;
  }

  function marked(doc, box) {
    if (box.kind === "printed") return true;
    const value = at(doc, box.field);
    if (box.kind === "toggle") return value.some((v) => same(v, box.key));
    if (box.kind === "count") return box.slot < value;
    return box.slot < value.length;
  }

  function written(doc, box) {
    return box.kind === "write" && box.slot < at(doc, box.field).length ?
      String(at(doc, box.field)[box.slot]) : "";
  }

  function click(box) {
    if (box.kind === "printed") return;
    const doc = copy(state.doc);
    const value = at(doc, box.field);
    if (box.kind === "toggle") {
      put(doc, box.field, marked(doc, box) ? value.filter((v) => !same(v, box.key)) : [...value, box.key]);
    } else if (box.kind === "count") {
      put(doc, box.field, value === box.slot + 1 ? box.slot : box.slot + 1);
    } else if (box.slot < value.length) {
      put(doc, box.field, value.slice(0, box.slot));  // clears this slot and those after
    } else if (box.slot === value.length) {
      return pickValue(box);
    } else {
      return showError($("coach-error"), "Fill this area's slots in order: the first empty one first.");
    }
    change(doc);
  }

  function pickValue(box) {
    const picker = $("coach-picker");
    picker.replaceChildren(element("span", {text: `Write in ${box.area} slot ${box.slot + 1}:`}),
      ...box.values.map((v) => {
        const button = element("button", {type: "button", class: "face", text: v});
        button.addEventListener("click", () => {
          const doc = copy(state.doc);
          put(doc, box.field, [...at(doc, box.field), v]);
          picker.hidden = true;
          change(doc);
        });
        return button;
      }), element("button", {type: "button", text: "Cancel", onclick: null}));
    picker.lastChild.addEventListener("click", () => { picker.hidden = true; });
    picker.hidden = false;
  }

  function trackClick(track, k) {
    // A circle as on paper: empty, then circled (unlocked), then crossed out (used); a
    // crossed one clicked again clears the track from there.
    const doc = copy(state.doc);
    const t = doc[track.field];
    if (k >= t.unlocked) t.unlocked = k + 1;
    else if (k >= t.used) t.used = k + 1;
    else { t.unlocked = k; t.used = Math.min(t.used, k); }
    change(doc);
  }

  function change(doc) {
    history.push(copy(state));
    state.doc = doc;
    draw();
    score();
  }

  // --- drawing ---------------------------------------------------------------------
  function svgNode(parent, tag, attributes, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    parent.append(node);
    return node;
  }

  function boxLabel(box) {
    return written(state.doc, box) || box.label.replace(">=", "\u2265");
  }

  function drawBox(svg, box, i) {
    const on = marked(state.doc, box);
    const group = svgNode(svg, "g", {
      class: "box", role: "button", tabindex: box.kind === "printed" ? -1 : 0, "data-box": i,
      "data-marked": on, "aria-label": `${box.area} ${box.label || "slot " + (box.slot + 1)}` +
        (on ? ", marked" : "")});
    const x = box.x * UNIT + 2, y = box.row * UNIT + 22;
    svgNode(group, "rect", {x, y, width: UNIT - 4, height: UNIT - 4, rx: 4,
      fill: box.kind === "printed" ? "#bbb" : on ? "#222" : "#fff",
      stroke: best.has(i) ? "#000" : "#666", "stroke-width": best.has(i) ? 4 : 1,
      "stroke-dasharray": best.has(i) ? "5 2" : ""});
    svgNode(group, "text", {x: x + (UNIT - 4) / 2, y: y + UNIT / 2 + 1, "text-anchor": "middle",
      style: `fill: ${on && box.kind !== "printed" ? "#fff" : "#111"}`}, boxLabel(box));
    group.addEventListener("click", () => click(box));
    group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") click(box); });
  }

  function drawTracks(svg, top) {
    layout.tracks.forEach((track, t) => {
      const y = top + t * (UNIT + 6) + UNIT / 2;
      svgNode(svg, "text", {x: 2, y: y + 5}, track.label);
      for (let k = 0; k < track.slots; k++) {
        const x = 130 + k * UNIT, state_ = k < track.doc.used ? "used" : k < track.doc.unlocked ? "unlocked" : "empty";
        const group = svgNode(svg, "g", {role: "button", tabindex: 0, class: "box",
          "data-track": track.field, "aria-label": `${track.label} ${k + 1}: ${state_}`});
        svgNode(group, "circle", {cx: x, cy: y, r: UNIT * 0.4, fill: state_ === "empty" ? "#fff" : "#ddd",
          stroke: "#222", "stroke-width": state_ === "empty" ? 1 : 3});
        if (state_ === "used") {
          const d = UNIT * 0.28;
          svgNode(group, "path", {d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`,
            stroke: "#111", "stroke-width": 3});
        }
        group.addEventListener("click", () => trackClick(track, k));
        group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") trackClick(track, k); });
      }
    });
  }

  function draw() {
    const svg = $("coach-sheet");
    svg.replaceChildren();
    const areas = new Map();
    layout.boxes.forEach((box, i) => {
      if (!areas.has(box.area)) {
        areas.set(box.area, true);
        svgNode(svg, "text", {x: box.x * UNIT + 2, y: box.row * UNIT + 16, class: "area"}, box.area);
      }
      drawBox(svg, box, i);
    });
    const bottom = Math.max(...layout.boxes.map((b) => b.row)) + 1;
    for (const track of layout.tracks) track.doc = state.doc[track.field];
    drawTracks(svg, bottom * UNIT + 30);
    const width = (Math.max(...layout.boxes.map((b) => b.x)) + 1) * UNIT + 4;
    svg.setAttribute("viewBox", `0 0 ${Math.max(width, 130 + 7 * UNIT)} ${bottom * UNIT + 40 + layout.tracks.length * (UNIT + 6)}`);
    drawDice();
  }

  // --- the dice --------------------------------------------------------------------
  function drawDice() {
    const box = $("coach-dice");
    box.replaceChildren(...layout.dice.map((die, d) => {
      const faces = [1, 2, 3, 4, 5, 6].map((f) => {
        const b = element("button", {type: "button", class: "face", text: f,
          "aria-label": `${die.name} die: ${f}`, "aria-pressed": String(state.faces[d] === f)});
        b.addEventListener("click", () => {
          state.faces[d] = state.faces[d] === f ? null : f;
          advice.cancel();  // a new roll: the old question no longer stands
          drawDice();
        });
        return b;
      });
      const place = element("select", {"aria-label": `where the ${die.name} die is`});
      for (const [value, words] of PLACES) {
        place.append(element("option", {value, text: words, selected: state.places[d] === value}));
      }
      place.addEventListener("change", () => { state.places[d] = place.value; });
      return element("div", {class: "die-row"}, element("span", {text: die.name}), ...faces, place);
    }));
    $("coach-phase").value = state.phase;
    $("coach-round").value = String(state.round);
  }

  function dice(place) {
    return layout.dice.map((die, d) => [die, d]).filter(([, d]) => state.places[d] === place && state.faces[d])
      .map(([die, d]) => `${die.letter}${state.faces[d]}`).join(" ");
  }

  // --- questions -------------------------------------------------------------------
  function form(extra) {
    const window = ["passive", "plus", "passive-plus"].includes(state.phase);
    return {game: layout.game, players: $("coach-players").value, sheet: state.doc,
            round: state.round, phase: state.phase,
            roll: window ? layout.dice.map((die, d) => state.faces[d] ? `${die.letter}${state.faces[d]}` : "").join(" ").trim() : dice("roll"),
            fields: window ? "" : dice("fields"), platter: window ? "" : dice("platter"),
            taken: state.taken.join(" "), ...extra};
  }

  async function score() {
    const job = await scoring.ask({kind: "sheet-score", ...form()}).catch((e) => ({state: "failed", error: e.message}));
    if (job.state === "failed") return showError($("coach-error"), job.error);
    if (job.state !== "done") return;
    showError($("coach-error"), "");
    const areas = Object.entries(job.answer.areas).map(([a, s]) => `${a} ${s}`).join(", ");
    $("coach-score").textContent = `Score so far: ${job.answer.total} (${areas}; foxes ${job.answer.foxes}).`;
  }

  async function advise() {
    showError($("coach-error"), "");
    $("coach-advice").replaceChildren();
    best = new Set();
    ranked = null;
    try {
      const job = await advice.ask({kind: "advise", ...form()});
      $("coach-progress").hidden = true;
      if (job.state === "failed") return showError($("coach-error"), job.error);
      if (job.state !== "done") return;
      ranked = job.answer.tables.choices;
      table(ranked);
      showBest(ranked[0].choice);
    } catch (e) {
      $("coach-progress").hidden = true;
      showError($("coach-error"), e.message);
    }
  }

  async function showBest(choice) {
    const job = await preview.ask({kind: "preview", ...form({choice})}).catch(() => null);
    if (!job || job.state !== "done") return;
    best = new Set(layout.boxes.map((b, i) => i).filter((i) =>
      marked(job.answer.sheet, layout.boxes[i]) && !marked(state.doc, layout.boxes[i])));
    draw();
  }

  function table(rows) {
    const head = ["", "Choice", "Expected final score", "95% interval", "Against the best", ""];
    $("coach-advice").replaceChildren(
      element("thead", {}, element("tr", {}, ...head.map((t) => element("th", {scope: "col", text: t})))),
      element("tbody", {}, ...rows.map((r, i) => {
        const take = element("button", {type: "button", text: "Take"});
        take.addEventListener("click", () => takeChoice(r.choice));
        return element("tr", {class: i === 0 ? "chosen" : null}, element("td", {text: i + 1}),
          element("th", {scope: "row", text: r.choice}),
          element("td", {class: "expected", text: r.expected_score.toFixed(1)}),
          element("td", {text: `${r.ci95_low.toFixed(1)} to ${r.ci95_high.toFixed(1)}`}),
          element("td", {text: i === 0 ? "best" : r.vs_best.toFixed(1)}), element("td", {}, take));
      })));
  }

  function plusInHand(doc) { return doc.plus_ones.unlocked > doc.plus_ones.used; }

  function follow(choice, answer) {
    // The phase that comes next, as the terminal coach follows it.
    const pick = /^active(\d)$/.exec(state.phase);
    const clearRoll = () => layout.dice.forEach((_, d) => { if (state.places[d] === "roll") state.faces[d] = null; });
    if (pick && choice !== "re-roll") {
      for (const [letters, place] of [[answer.fields, "fields"], [answer.platter, "platter"]]) {
        for (const token of letters.split(" ").filter(Boolean)) {
          state.places[layout.dice.findIndex((die) => die.letter === token[0])] = place;
        }
      }
      clearRoll();
      const left = state.places.some((p) => p === "roll");
      state.phase = Number(pick[1]) < 3 && left ? `active${Number(pick[1]) + 1}` :
        plusInHand(state.doc) ? "plus" : "passive";
      if (state.phase === "plus") state.places = state.places.map(() => "roll");
    } else if (pick) {
      clearRoll();
    } else if (state.phase === "plus" || state.phase === "passive-plus") {
      const colour = choice.startsWith("+1: ") ? choice.slice(4).split(" ")[0] : null;
      const die = layout.dice.find((d) => d.name === colour);
      if (die) state.taken.push(die.letter);
      if (!die || !plusInHand(state.doc)) nextWindow();
    } else if (state.phase === "passive") {
      state.phase = plusInHand(state.doc) ? "passive-plus" : nextRound();
    }
  }

  function nextWindow() {
    state.taken = [];
    state.phase = state.phase === "plus" ? "passive" : nextRound();
    state.faces = state.faces.map(() => null);
    state.places = state.places.map(() => "roll");
  }

  function nextRound() {
    state.round = Math.min(state.round + 1, Number($("coach-round").lastChild.value));
    state.faces = state.faces.map(() => null);
    state.places = state.places.map(() => "roll");
    return "active1";
  }

  async function takeChoice(choice) {
    showError($("coach-error"), "");
    try {
      const job = await new Question(() => {}).ask({kind: "take", ...form({choice})});
      if (job.state === "failed") return showError($("coach-error"), job.error);
      history.push(copy(state));
      state.doc = job.answer.sheet;
      follow(choice, job.answer);
      best = new Set();
      $("coach-advice").replaceChildren();
      draw();
      score();
    } catch (e) {
      showError($("coach-error"), e.message);
    }
  }

  // --- set-up ----------------------------------------------------------------------
  function rounds() {
    const count = layout.rounds[$("coach-players").value];
    $("coach-round").replaceChildren(...Array.from({length: count}, (_, r) =>
      element("option", {value: r + 1, text: r + 1, selected: r + 1 === state.round})));
  }

  async function load(game) {
    layout = await call("GET", `/api/clever/${game}/sheet`);
    Object.assign(state, {doc: copy(layout.blank), round: 1, phase: "active1", taken: [],
                          faces: layout.dice.map(() => null), places: layout.dice.map(() => "roll")});
    history.length = 0;
    $("coach-phase").replaceChildren(...layout.phases.map((p) => element("option", {value: p, text: p})));
    rounds();
    draw();
    score();
  }

  function controls() {
    $("coach-game").addEventListener("change", () => load($("coach-game").value));
    $("coach-players").addEventListener("change", () => { rounds(); score(); });
    $("coach-round").addEventListener("change", () => { state.round = Number($("coach-round").value); });
    $("coach-phase").addEventListener("change", () => { state.phase = $("coach-phase").value; state.taken = []; });
    $("coach-advise").addEventListener("click", advise);
    $("coach-undo").addEventListener("click", () => {
      if (!history.length) return;
      Object.assign(state, history.pop());
      best = new Set();
      draw();
      score();
    });
    $("coach-new").addEventListener("click", () => change(copy(layout.blank)));
    $("coach-save").addEventListener("click", () => {
      const link = element("a", {download: `${layout.game}-sheet.json`, href: URL.createObjectURL(
        new Blob([JSON.stringify(state.doc, null, 1)], {type: "application/json"}))});
      link.click();
    });
    $("coach-load").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      const before = copy(state);
      try {
        change(filled(JSON.parse(await file.text()), layout.blank));
      } catch (e) {
        Object.assign(state, before);
        history.pop();
        draw();
        showError($("coach-error"), `This file is not a ${layout.title} sheet: ${e.message}`);
      }
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    controls();
    load($("coach-game").value).catch((e) => showError($("coach-error"), e.message));
  });
})();
