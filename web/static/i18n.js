// The scripts' texts in the page's language: _("Round {n}", {n: 3}). The catalogue is the
// page's <script id="messages"> (web/i18n.py); a text without a translation stays English.
"use strict";
const MESSAGES = JSON.parse(document.getElementById("messages").textContent);
function _(text, values = {}) {
  return (MESSAGES[text] || text).replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}
