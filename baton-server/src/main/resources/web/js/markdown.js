// A model's answer as markdown, made safe. HTML the model wrote is shown as text, never parsed as markup; what
// marked makes of the markdown goes through DOMPurify with an allow-list of plain formatting tags and attributes.
// Images are replaced by a note unless the operator allows them (loading one could send data to another site).
// Links open in a new tab with rel="noopener noreferrer"; only http(s) and mailto links survive. The server's
// Content-Security-Policy would refuse inline script anyway: this keeps such markup from reaching the page at all.

import { h, copyButton } from "./dom.js";

const TAGS = [
  "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em", "h1", "h2", "h3",
  "h4", "h5", "h6", "hr", "i", "input", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "small", "span", "strong",
  "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
];
const ATTRIBUTES = ["href", "title", "alt", "class", "align", "start", "type", "checked", "disabled", "colspan",
  "rowspan", "lang", "dir"];
/** Class names an answer may carry: a code block's language (for highlighting) and the page's image note. */
const CLASS_ALLOWED = /^(language-[A-Za-z0-9_+#-]{1,40}|blocked-image)$/;

const parser = new window.marked.Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // raw HTML in an answer (block or inline) is text: the reader sees it, the browser never parses it
    html(token) {
      return escapeHtml(token.text);
    },
    image(token) {
      const src = String(token.href || "");
      if (imagesAllowed && /^https:\/\//i.test(src)) {
        return '<img src="' + escapeHtml(src) + '" alt="' + escapeHtml(token.text || "") + '">';
      }
      const alt = String(token.text || "").trim();
      const title = "Images in answers are not loaded: loading one could send data to another site."
        + (src ? " Its address: " + src.slice(0, 300) : "");
      return '<span class="blocked-image" title="' + escapeHtml(title) + '">'
        + escapeHtml("Image not shown" + (alt ? ": " + alt : "")) + "</span>";
    },
  },
});
const purify = window.DOMPurify(window);
let imagesAllowed = false;

purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.hasAttribute("class")) {
    const kept = node.getAttribute("class").split(/\s+/).filter((c) => CLASS_ALLOWED.test(c));
    if (kept.length) node.setAttribute("class", kept.join(" "));
    else node.removeAttribute("class");
  }
  if (node.nodeName === "A") {
    if (node.hasAttribute("href")) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  } else if (node.nodeName === "INPUT") {
    // task-list checkboxes only, and not clickable: an answer is not a form
    node.setAttribute("type", "checkbox");
    node.setAttribute("disabled", "");
  } else if (node.nodeName === "IMG") {
    node.setAttribute("referrerpolicy", "no-referrer");
    node.setAttribute("loading", "lazy");
  }
});

/** Whether answers' images are shown (the server's web.images setting; its CSP then allows https images). */
export function allowImages(allowed) {
  imagesAllowed = allowed === true;
}

/**
 * The answer's markdown as a fragment that is safe to insert into the page.
 *
 * @param final false while the answer is still streaming: code is highlighted once it is complete
 */
export function render(markdown, final) {
  const html = parser.parse(String(markdown || ""));
  const fragment = purify.sanitize(html, {
    ALLOWED_TAGS: imagesAllowed ? TAGS.concat("img") : TAGS,
    ALLOWED_ATTR: imagesAllowed ? ATTRIBUTES.concat("src") : ATTRIBUTES,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    SANITIZE_NAMED_PROPS: true,
    RETURN_DOM_FRAGMENT: true,
  });
  decorate(fragment, final);
  return fragment;
}

/** The answer as plain text (what the live region reads out). */
export function plainText(markdown) {
  return render(markdown, false).textContent.replace(/\s+/g, " ").trim();
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** Code blocks get a header with their language and a copy button; tables scroll sideways on a narrow screen. */
function decorate(fragment, final) {
  for (const table of Array.from(fragment.querySelectorAll("table"))) {
    const wrap = document.createElement("div");
    wrap.className = "table-wrap";
    table.replaceWith(wrap);
    wrap.append(table);
  }
  for (const pre of Array.from(fragment.querySelectorAll("pre"))) {
    const code = pre.querySelector("code") || pre;
    const language = ((code.className || "").match(/language-([A-Za-z0-9_+#-]+)/) || [])[1] || "";
    if (final && window.hljs && code !== pre) {
      if (language && !window.hljs.getLanguage(language)) code.classList.add("nohighlight");
      window.hljs.highlightElement(code);
    }
    const head = h("div", { className: "code-head" },
      h("span", { className: "code-lang" }, language || "code"),
      copyButton("Copy code" + (language ? " (" + language + ")" : ""), () => code.textContent));
    const block = h("div", { className: "code-block" });
    pre.replaceWith(block);
    block.append(head, pre);
  }
}

if (window.hljs) window.hljs.configure({ ignoreUnescapedHTML: true });
