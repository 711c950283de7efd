// Light or dark: the system's preference (prefers-color-scheme) until the user picks one with the toggle, which is
// remembered in this browser. The choice sets <html data-theme>, whose color-scheme app.css's light-dark() colours
// follow; the code highlighting's two style sheets are switched to match.

import { $ } from "./dom.js";

const THEME_KEY = "baton.theme";
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

function chosen() {
  const theme = localStorage.getItem(THEME_KEY);
  return theme === "light" || theme === "dark" ? theme : null;
}

/** The theme on screen: the one chosen, else the system's. */
export function currentTheme() {
  return chosen() || (systemDark.matches ? "dark" : "light");
}

function apply() {
  const theme = chosen();
  const root = document.documentElement;
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  const light = $("highlight-light");
  const dark = $("highlight-dark");
  light.media = theme ? (theme === "light" ? "all" : "not all") : "not all and (prefers-color-scheme: dark)";
  dark.media = theme ? (theme === "dark" ? "all" : "not all") : "(prefers-color-scheme: dark)";
  const other = currentTheme() === "dark" ? "light" : "dark";
  const toggle = $("theme-toggle");
  toggle.textContent = other === "dark" ? "Dark theme" : "Light theme";
  toggle.setAttribute("aria-label", "Switch to the " + other + " theme");
  toggle.dataset.next = other;
}

/** Applies the remembered theme and wires the toggle; without a choice the page follows the system as it changes. */
export function wireTheme() {
  apply();
  systemDark.addEventListener("change", apply);
  $("theme-toggle").addEventListener("click", () => {
    localStorage.setItem(THEME_KEY, $("theme-toggle").dataset.next);
    apply();
  });
}
