// The invite link of a friends' table (web/invite.ts) and its QR code (web/qrCode.ts, by uqr): the
// link carries the code, the code names the table its connection is routed to, a used invite
// leaves the address; the QR path draws exactly the code's dark modules.
import { describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { dropInvite, inviteIn, inviteLink, tableOfInvite } from '../../web/invite.js';
import { qrPath } from '../../web/qrCode.js';

describe('web/invite', () => {
  it('links the code on the page’s own server, reads it back, and names the table before the dot', () => {
    const link = inviteLink({ href: 'https://yaniv.example/?token=s3cret#x' }, 't-AbC_1.s3Cr-et');
    expect(link).toBe('https://yaniv.example/?join=t-AbC_1.s3Cr-et');
    expect(inviteIn(new URL(link))).toBe('t-AbC_1.s3Cr-et');
    expect(tableOfInvite('t-AbC_1.s3Cr-et')).toBe('t-AbC_1');
    expect([inviteIn({ search: '' }), inviteIn({ search: '?join=%20' })]).toEqual([null, null]);
  });

  it('drops a used invite from the address, keeping the rest', () => {
    const replaced: string[] = [];
    dropInvite(
      { href: 'http://127.0.0.1:8080/?token=k&join=t-1.x' },
      { replaceState: (_data, _unused, url) => replaced.push(String(url)) },
    );
    expect(replaced).toEqual(['http://127.0.0.1:8080/?token=k']);
  });

  it('draws one unit square per dark module of the code, in a viewBox of its size', () => {
    const text = 'http://127.0.0.1:8080/?join=t-ohtHW1Es.XY9Lp3F0';
    const { path, size } = qrPath(text);
    const { data } = encode(text, { ecc: 'M', border: 2 });
    expect(size).toBe(data.length);
    const squares = [...path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(([, x, y]) => `${x},${y}`);
    const dark = data.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x},${y}`] : [])));
    expect(squares).toEqual(dark);
    expect(squares.length).toBeGreaterThan(100);
  });
});
