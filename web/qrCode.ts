/**
 * A QR code of a link, drawn as one SVG path (uqr encodes it: the page vendors the package under
 * /vendor/, serve/net/static.ts). Inline SVG, so the page's policy (images from its own server
 * only) needs no data: URL.
 */
import { encode } from 'uqr';
import { html } from './html.js';

/** The dark modules of a QR code as an SVG path of unit squares, and the code's width with its quiet zone. */
export function qrPath(text: string): { readonly path: string; readonly size: number } {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  const squares: string[] = [];
  data.forEach((row, y) => row.forEach((dark, x) => dark && squares.push(`M${x} ${y}h1v1h-1z`)));
  return { path: squares.join(''), size };
}

export function QrCode({ text, label }: { readonly text: string; readonly label: string }) {
  const { path, size } = qrPath(text);
  return html`<svg class="qr" viewBox=${`0 0 ${size} ${size}`} role="img" aria-label=${label} shape-rendering="crispEdges">
    <rect width=${size} height=${size} fill="#fff" />
    <path d=${path} fill="#000" />
  </svg>`;
}
