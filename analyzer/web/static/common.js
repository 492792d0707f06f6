// What every page of dicelab's web app shares: the tab's own name, calls to the server,
// questions followed to their answer with a progress bar, and the page switcher.
"use strict";

const dicelab = (() => {
  // Each tab names itself once: its questions and positions are its own.
  let tab = sessionStorage.getItem("dicelab-tab");
  if (!tab) {
    tab = Array.from(crypto.getRandomValues(new Uint8Array(12)),
                     (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("dicelab-tab", tab);
  }

  class Refused extends Error {}  // the server's one-line answer to a bad form

  async function call(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: {"content-type": "application/json", "x-dicelab-tab": tab},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({error: "the server's answer was unreadable"}));
    if (!response.ok) throw new Refused(data.error || `the server answered ${response.status}`);
    return data;
  }

  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (key === "text") node.textContent = value;
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
    }
    node.append(...children);
    return node;
  }

  function clock(seconds) {
    const s = Math.max(0, Math.round(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // A question followed until it ends: `show` gets the job at every look.
  class Question {
    constructor(show) { this.show = show; this.job = null; this.stopped = false; }

    async ask(form) {
      this.stopped = false;
      this.job = await call("POST", "/api/jobs", form);
      while (this.job.state === "running" && !this.stopped) {
        this.show(this.job);
        await new Promise((done) => setTimeout(done, 250));
        if (this.stopped) break;
        this.job = await call("GET", `/api/jobs/${this.job.id}`);
      }
      return this.job;
    }

    async cancel() {
      this.stopped = true;
      if (this.job && this.job.state === "running") {
        this.job = await call("DELETE", `/api/jobs/${this.job.id}`);
      }
      return this.job;
    }

    download(format) { return `/api/jobs/${this.job.id}/answer.${format}?tab=${tab}`; }
  }

  function progress(box, job) {
    box.hidden = false;
    const share = job.total ? Math.min(job.done / job.total, 1) : 0;
    box.querySelector(".fill").style.width = `${(100 * share).toFixed(1)}%`;
    const left = job.seconds_left === null || !job.done ? "" :
      `, about ${clock(job.seconds_left)} left`;
    const status = job.status ? `; ${job.status}` : "";
    box.querySelector(".status").textContent = job.total ?
      `${(100 * share).toFixed(0)}% done${left}${status}` : "Starting\u2026";
  }

  function showError(box, message) {
    box.textContent = message;
    box.hidden = !message;
  }

  function switcher() {
    const buttons = document.querySelectorAll("nav button[data-page]");
    for (const button of buttons) {
      button.addEventListener("click", () => {
        for (const other of buttons) {
          other.setAttribute("aria-pressed", String(other === button));
          document.getElementById(other.dataset.page).hidden = other !== button;
        }
      });
    }
  }

  function progressBars() {  // every progress box: a bar and a line of words
    for (const box of document.querySelectorAll(".progress")) {
      box.append(element("div", {class: "bar"}, element("div", {class: "fill"})),
                 element("p", {class: "status", "aria-live": "polite"}));
    }
  }

  document.addEventListener("DOMContentLoaded", () => { switcher(); progressBars(); });
  return {tab, call, element, clock, Question, Refused, progress, showError};
})();
