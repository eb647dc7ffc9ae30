// The name entry screen. The name (and the session token the server gives back) are kept in
// localStorage, so a reload logs in again and takes back any seat held for us.

import { h } from "./ui.js";

export function renderLogin(app) {
  const input = h("input", {
    id: "name-input", name: "name", type: "text", required: true, maxlength: 32,
    autocomplete: "username", value: app.state.name, testid: "name-input",
  });
  const form = h("form", {
    class: "card login", testid: "login-form",
    onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (name) app.login(name);
    },
  },
    h("h2", { text: "Welcome to the game hall" }),
    h("p", { class: "muted", text: "Pick a name to play under. Letters, digits and _ work everywhere (legacy clients are stricter than the browser)." }),
    app.state.loginError ? h("p", { class: "banner error", role: "alert", testid: "login-error", text: app.state.loginError }) : null,
    h("label", { for: "name-input", text: "Your name" }),
    input,
    h("button", { type: "submit", class: "primary", testid: "login-button", text: "Enter the hall" }),
  );
  queueMicrotask(() => input.focus());
  return form;
}
