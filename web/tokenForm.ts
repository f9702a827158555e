/** The password the server asks for (its access token, `yaniv serve --token`), typed by the player. */
import { tokenPrompt } from './errorWords.js';
import { html } from './html.js';
import { OneFieldForm } from './oneFieldForm.js';

export function TokenForm({ given, onToken }: { readonly given: boolean; readonly onToken: (token: string) => void }) {
  return html`<${OneFieldForm}
    kind="token-form"
    title="Password needed"
    label="Password"
    field=${{ name: 'token', type: 'password', autocomplete: 'current-password' }}
    submit="Connect"
    ready=${(token: string) => token.trim() !== ''}
    onSubmit=${onToken}
    before=${html`<p>${tokenPrompt(given)}</p>`}
  />`;
}
