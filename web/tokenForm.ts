/** The password the server asks for (its access token, `yaniv serve --token`), typed by the player. */
import { useState } from 'preact/hooks';
import { tokenPrompt } from './errorWords.js';
import { html } from './html.js';

export function TokenForm({ given, onToken }: { readonly given: boolean; readonly onToken: (token: string) => void }) {
  const [token, setToken] = useState('');
  return html`<form
    class="token-form"
    aria-labelledby="token-title"
    onSubmit=${(event: Event) => {
      event.preventDefault();
      if (token.trim() !== '') onToken(token);
    }}
  >
    <h2 id="token-title">Password needed</h2>
    <p>${tokenPrompt(given)}</p>
    <label class="row"
      >Password
      <input
        name="token"
        type="password"
        autocomplete="current-password"
        value=${token}
        onInput=${(e: Event) => setToken((e.target as HTMLInputElement).value)}
      />
    </label>
    <button type="submit" class="primary" disabled=${token.trim() === ''}>Connect</button>
  </form>`;
}
