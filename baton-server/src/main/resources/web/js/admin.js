// The admin views: usage over time by user, agent and model (GET /v1/admin/usage, admin:usage) as stacked bar
// charts with a table beside each for screen readers, and a session's audit trail (GET
// /v1/admin/sessions/{id}/audit, admin:audit). Chart.js is loaded the first time the view opens.

import { h, $, formatNumber, formatUsd, announce } from "./dom.js";
import { api } from "./api.js";
import { describe } from "./errors.js";

const DIMENSIONS = [
  { key: "user", title: "By user" },
  { key: "agent", title: "By agent" },
  { key: "model", title: "By model" },
];
const MEASURES = {
  costUsd: { label: "Cost (USD)", of: (g) => g.costUsd || 0, format: formatUsd },
  tokens: { label: "Tokens (input + output)", of: (g) => (g.inputTokens || 0) + (g.outputTokens || 0),
    format: formatNumber },
  calls: { label: "Model calls", of: (g) => g.calls || 0, format: formatNumber },
};
const SERIES_SHOWN = 8;
const COLOURS = ["#4f6bed", "#e8743b", "#19a979", "#ed4a7b", "#945ecf", "#13a4b4", "#d6a41f", "#6f7b8c", "#a0a8b5"];

/** What the signed-in user may see here: {usage, audit}, found by asking (403 or not). */
export async function adminPermissions() {
  const [usage, audit] = await Promise.all([
    api("GET", "/v1/admin/usage").then(() => true, () => false),
    // a session nobody has: 404 when the permission is there, 403 when not
    api("GET", "/v1/admin/sessions/-/audit").then(() => true, (e) => e.status === 404),
  ]);
  return { usage, audit };
}

export class Admin {
  constructor() {
    this.charts = [];
    this.permissions = { usage: false, audit: false };
    const today = utcDay(new Date());
    $("usage-from").value = utcDay(new Date(Date.now() - 29 * 86400000));
    $("usage-to").value = today;
    $("usage-form").addEventListener("submit", (ev) => { ev.preventDefault(); this.loadUsage(); });
    $("usage-measure").addEventListener("change", () => this.drawUsage());
    $("audit-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const id = $("audit-session").value.trim();
      if (id) window.location.hash = "#/admin/audit/" + encodeURIComponent(id);
    });
  }

  setPermissions(p) {
    this.permissions = p;
    $("usage-section").hidden = !p.usage;
    $("audit-section").hidden = !p.audit;
  }

  /** Opens the view; with {@code auditSessionId} its audit trail is shown too. */
  async show(auditSessionId) {
    if (this.permissions.usage && !this.usage) await this.loadUsage();
    if (auditSessionId) {
      $("audit-session").value = auditSessionId;
      await this.loadAudit(auditSessionId);
    }
  }

  async loadUsage() {
    const status = $("usage-status");
    status.textContent = "Loading usage…";
    try {
      await loadChartJs();
      const range = "from=" + $("usage-from").value + "&to=" + $("usage-to").value;
      const [total, ...byDimension] = await Promise.all([
        api("GET", "/v1/admin/usage?" + range),
        ...DIMENSIONS.map((d) => api("GET", "/v1/admin/usage?" + range + "&groupBy=" + d.key + ",day")),
      ]);
      this.usage = { total, byDimension };
      const truncated = byDimension.some((u) => u.truncated);
      status.textContent = truncated ? "Too many groups: the charts show the first 10,000." : "";
      this.drawUsage();
    } catch (e) {
      const d = describe(e);
      status.textContent = d.title + ". " + d.detail;
    }
  }

  drawUsage() {
    if (!this.usage) return;
    const measure = MEASURES[$("usage-measure").value] || MEASURES.costUsd;
    const t = this.usage.total.total || {};
    $("usage-totals").replaceChildren(
      total("Model calls", formatNumber(t.calls)),
      total("Input tokens", formatNumber(t.inputTokens)),
      total("Output tokens", formatNumber(t.outputTokens)),
      total("Cost", formatUsd(t.costUsd)));
    for (const chart of this.charts) chart.destroy();
    this.charts = [];
    const days = dayRange($("usage-from").value, $("usage-to").value);
    const figures = DIMENSIONS.map((d, i) => this.figure(d, this.usage.byDimension[i].groups, days, measure));
    $("usage-charts").replaceChildren(...figures);
    announce("Usage shown: " + measure.label);
  }

  figure(dimension, groups, days, measure) {
    const series = seriesOf(groups, dimension.key, days, measure);
    const canvas = h("canvas", { role: "img",
      "aria-label": dimension.title + ", " + measure.label + " per day: " + (series.length
        ? series.map((s) => s.name + " " + measure.format(s.sum)).join(", ") : "no usage") });
    const figure = h("figure", { className: "chart-card" },
      h("figcaption", {}, dimension.title),
      h("div", { className: "chart-box" }, canvas),
      h("details", {}, h("summary", {}, "Show as a table"), table(series, measure)));
    figure.dataset.dimension = dimension.key;
    if (!series.length) {
      figure.querySelector(".chart-box").replaceChildren(h("p", { className: "hint" }, "No usage in this range."));
      return figure;
    }
    if (series.every((s) => s.sum === 0)) {
      // usage there was (the groups are calls), it just measures 0: a model without a price costs nothing
      figure.insertBefore(h("p", { className: "hint zero-usage" }, measure.label + " is 0 for all of it"
        + (measure === MEASURES.costUsd ? ": the models used have no price (see prices in baton.yaml)." : ".")),
        figure.querySelector(".chart-box"));
    }
    this.charts.push(new window.Chart(canvas, {
      type: "bar",
      data: {
        labels: days,
        datasets: series.map((s, i) => ({ label: s.name, data: s.values, backgroundColor: COLOURS[i % COLOURS.length],
          borderRadius: 3 })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true,
          ticks: { callback: (v) => measure.format(v) } } },
        plugins: { legend: { position: "bottom" },
          tooltip: { callbacks: { label: (c) => c.dataset.label + ": " + measure.format(c.parsed.y) } } },
      },
    }));
    return figure;
  }

  async loadAudit(sessionId) {
    const out = $("audit-result");
    out.replaceChildren(h("p", {}, "Loading…"));
    try {
      const body = await api("GET", "/v1/admin/sessions/" + encodeURIComponent(sessionId) + "/audit");
      const records = body.auditRecords;
      if (!records.length) {
        out.replaceChildren(h("p", {}, "No audit records: no module changed or blocked anything in this session."));
        return;
      }
      out.replaceChildren(h("div", { className: "table-wrap" }, h("table", { className: "audit-table" },
        h("caption", {}, records.length + " audit record" + (records.length === 1 ? "" : "s") + " for session "
          + sessionId + ", oldest first"),
        h("thead", {}, h("tr", {}, ["Time", "Module", "Reason", "Patterns", "Original message"]
          .map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, records.map((r) => h("tr", {},
          h("td", {}, new Date(r.createdAt).toLocaleString()),
          h("td", {}, r.module || ""),
          h("td", {}, r.reason || ""),
          h("td", {}, (r.patternsMatched || []).join(", ")),
          h("td", {}, h("pre", { className: "audit-original" }, r.originalContent || ""))))))));
    } catch (e) {
      const d = e.code === "not_found"
        ? { title: "No such session", detail: "Your tenant has no session with this id." } : describe(e);
      out.replaceChildren(h("p", { className: "notice error" }, d.title + ". " + d.detail));
    }
  }
}

/** The top series by the measure's sum, the rest folded into "others", each with a value per day. */
function seriesOf(groups, key, days, measure) {
  const byName = new Map();
  for (const g of groups) {
    const name = g[key] || "(none)";
    if (!byName.has(name)) byName.set(name, new Map());
    const perDay = byName.get(name);
    perDay.set(g.day, (perDay.get(g.day) || 0) + measure.of(g));
  }
  const all = Array.from(byName, ([name, perDay]) => ({
    name, values: days.map((d) => perDay.get(d) || 0),
  })).map((s) => Object.assign(s, { sum: s.values.reduce((a, b) => a + b, 0) }))
    // every group is usage (model calls), even one that measures 0 (an unpriced model's cost): it stays listed
    .sort((a, b) => b.sum - a.sum || a.name.localeCompare(b.name));
  if (all.length <= SERIES_SHOWN) return all;
  const shown = all.slice(0, SERIES_SHOWN - 1);
  const rest = all.slice(SERIES_SHOWN - 1);
  const values = days.map((_, i) => rest.reduce((a, s) => a + s.values[i], 0));
  shown.push({ name: rest.length + " others", values, sum: values.reduce((a, b) => a + b, 0) });
  return shown;
}

function table(series, measure) {
  if (!series.length) return h("p", {}, "No usage in this range.");
  return h("div", { className: "table-wrap" }, h("table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, measure.label))),
    h("tbody", {}, series.map((s) => h("tr", {}, h("th", { scope: "row" }, s.name),
      h("td", {}, measure.format(s.sum)))))));
}

function total(label, value) {
  return h("div", { className: "total" }, h("span", { className: "total-value" }, value),
    h("span", { className: "total-label" }, label));
}

function utcDay(date) {
  return date.toISOString().slice(0, 10);
}

function dayRange(from, to) {
  const days = [];
  const end = Date.parse(to + "T00:00:00Z");
  for (let t = Date.parse(from + "T00:00:00Z"); t <= end && days.length < 400; t += 86400000) {
    days.push(utcDay(new Date(t)));
  }
  return days;
}

let chartJs = null;

function loadChartJs() {
  if (window.Chart) return Promise.resolve();
  if (!chartJs) {
    chartJs = new Promise((resolve, reject) => {
      const script = h("script", { src: "/vendor/chart.js" });
      script.addEventListener("load", () => resolve());
      script.addEventListener("error", () => { chartJs = null; reject(new Error("the chart library did not load")); });
      document.head.append(script);
    });
  }
  return chartJs;
}
