// The what-if page: send the moved inputs to the server, which recomputes the
// engine and answers with the page's results. No model here: only the inputs
// moved, the requests and the downloads.
"use strict";
(function () {
  const lang = document.body.dataset.lang;
  const overrides = {};
  let inflight = false;
  let pending = false;

  const $ = (sel) => document.querySelector(sel);
  const sliders = () => Array.from(document.querySelectorAll("input[type=range][data-path]"));

  function valueOf(el) {
    const d = Number(el.dataset.decimals);
    return Number(Number(el.value).toFixed(d));
  }

  function showError(message) {
    const box = $("#error");
    if (message) {
      box.querySelector("pre").textContent = message;
      box.hidden = false;
    } else {
      box.hidden = true;
    }
  }

  // advice on the inputs moved (an override a tier shadows, a value far outside
  // its documented range): shown, as text, until the inputs no longer call for it.
  // Each notice is a list of [kind, text] pieces: "code" (a file, path or value,
  // as written) or "text" (words in the page's language).
  function showNotices(notices) {
    const box = $("#notices");
    const list = box.querySelector(".notes");
    list.replaceChildren();
    for (const pieces of notices || []) {
      const line = document.createElement("p");
      for (const [kind, text] of pieces) {
        const el = document.createElement(kind === "code" ? "code" : "span");
        el.textContent = text;
        line.appendChild(el);
      }
      list.appendChild(line);
    }
    box.hidden = !(notices && notices.length);
  }

  async function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  function updateValues(values) {
    for (const out of document.querySelectorAll("output[data-path]")) {
      const v = values[out.dataset.path];
      if (v !== undefined) out.textContent = v;
    }
    const n = Object.keys(overrides).length;
    $("#moved").textContent = $("#moved").dataset.template.replace("{n}", n);
  }

  async function recompute() {
    if (inflight) { pending = true; return; }
    inflight = true;
    document.body.dataset.state = "busy";
    try {
      const sent = Object.assign({}, overrides);
      const r = await post("api/recompute", { overrides: sent, lang: lang });
      const data = await r.json();
      if (r.ok) {
        $("#options-part").innerHTML = data.options;
        $("#strip-part").innerHTML = data.strip;
        $("#charts-part").innerHTML = data.charts;
        updateValues(data.values);
        showNotices(data.notices);
        $("#timing").textContent = $("#timing").dataset.template.replace("{ms}", data.ms);
        showError(null);
        if (!pending) {
          document.body.dataset.decision = "busy";
          const d = await post("api/decision", { overrides: sent, lang: lang });
          const dd = await d.json();
          if (d.ok) $("#decision-part").innerHTML = dd.html; else showError(dd.error);
          document.body.dataset.decision = "ready";
        }
      } else {
        showError(data.error);
      }
    } catch (e) {
      showError(String(e));
    } finally {
      inflight = false;
      if (pending) { pending = false; recompute(); return; }
      document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
      document.body.dataset.state = "ready";
    }
  }

  function moved(el) {
    const v = valueOf(el);
    const base = Number(el.dataset.base);
    if (v === base) delete overrides[el.dataset.path]; else overrides[el.dataset.path] = v;
    el.closest(".control").classList.toggle("moved", v !== base);
    recompute();
  }

  async function download(url, fallback) {
    document.body.dataset.state = "busy";
    try {
      const r = await post(url, { overrides: Object.assign({}, overrides), lang: lang });
      if (!r.ok) { showError((await r.json()).error); return; }
      const blob = await r.blob();
      const cd = r.headers.get("Content-Disposition") || "";
      const m = /filename="([^"]+)"/.exec(cd);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = m ? m[1] : fallback;
      document.body.appendChild(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      showError(null);
    } finally {
      document.body.dataset.state = "ready";
    }
  }

  // A job on request (Monte Carlo, the scale sweep): start it, then poll its
  // progress until its result (or error) arrives. `ui` names the button, the
  // progress bar, the status line and the result's box.
  async function runJob(url, extra, ui) {
    const body = Object.assign({ overrides: Object.assign({}, overrides), lang: lang }, extra);
    const r = await post(url, body);
    const data = await r.json();
    if (!r.ok) { showError(data.error); return; }
    showError(null);
    const button = $(ui.button), bar = $(ui.bar), status = $(ui.status);
    bar.hidden = false;
    button.disabled = true;
    const poll = async () => {
      const j = await (await fetch("api/jobs/" + data.job + "?lang=" + lang)).json();
      bar.max = j.total; bar.value = j.done;
      status.textContent = status.dataset.template.replace("{done}", j.done.toLocaleString())
        .replace("{n}", j.total.toLocaleString());
      if (j.error) { showError(j.error); button.disabled = false; return; }
      if (j.html !== undefined && j.html !== null) {
        $(ui.result).innerHTML = j.html;
        button.disabled = false;
        return;
      }
      setTimeout(poll, 250);
    };
    poll();
  }

  function monteCarlo() {
    runJob("api/montecarlo", { n: Number($("#draws").value) },
      { button: "#run-mc", bar: "#mc-progress", status: "#mc-status", result: "#mc-result" });
  }

  function sweepTier() {
    const o = $("#sweep-tier").selectedOptions[0];
    for (const [id, key] of [["#sweep-from", "lo"], ["#sweep-to", "hi"]]) {
      const el = $(id);
      el.value = o.dataset[key];
      el.step = o.dataset.step;
    }
  }

  function sweep() {
    const whole = (id) => Math.round(Number($(id).value));
    runJob("api/sweep", { tier: $("#sweep-tier").value, from: whole("#sweep-from"), to: whole("#sweep-to") },
      { button: "#run-sweep", bar: "#sweep-progress", status: "#sweep-status", result: "#sweep-result" });
  }

  function studyTier() {
    const o = $("#study-tier").selectedOptions[0];
    for (const [id, key] of [["#study-from", "lo"], ["#study-to", "hi"]]) {
      const el = $(id);
      el.value = o.dataset[key];
      el.step = o.dataset.step;
    }
  }

  function study() {
    const whole = (id) => Math.round(Number($(id).value));
    runJob("api/study", { tier: $("#study-tier").value, from: whole("#study-from"), to: whole("#study-to"),
      n: Number($("#study-draws").value) },
      { button: "#run-study", bar: "#study-progress", status: "#study-status", result: "#study-result" });
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const el of sliders()) el.addEventListener("input", () => moved(el));
    $("#reset").addEventListener("click", () => {
      for (const el of sliders()) {
        el.value = el.dataset.base;
        el.closest(".control").classList.remove("moved");
        delete overrides[el.dataset.path];
      }
      recompute();
    });
    $("#save").addEventListener("click", () => download("api/scenario", "scenario.yaml"));
    $("#workbook").addEventListener("click", () => download("api/workbook", "model.xlsx"));
    $("#memo").addEventListener("click", () => download("api/memo", "memo.html"));
    $("#run-mc").addEventListener("click", monteCarlo);
    $("#sweep-tier").addEventListener("change", sweepTier);
    $("#run-sweep").addEventListener("click", sweep);
    $("#study-tier").addEventListener("change", studyTier);
    $("#run-study").addEventListener("click", study);
  });
})();
