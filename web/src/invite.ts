/**
 * Inviting a friend: the room code as a child reads it aloud ("123 456"), a link that opens /play
 * with the code filled in (`/play/?code=123456`), and that link as a QR code another phone scans.
 */
import { el } from './dom';

/** Digits only, from what a child typed or a link carried ("123 456", "123-456"); null unless six. */
export function normalizeCode(text: string | null | undefined): string | null {
  const digits = (text ?? '').replace(/[\s-]/g, '');
  return /^[0-9]{6}$/.test(digits) ? digits : null;
}

/** "123456" → "123 456", for reading aloud; anything else as it is. */
export function groupCode(code: string): string {
  return /^[0-9]{6}$/.test(code) ? `${code.slice(0, 3)} ${code.slice(3)}` : code;
}

export function inviteLink(code: string): string {
  return `${location.origin}/play/?code=${encodeURIComponent(code)}`;
}

/** The code an invite link opened this page with, if any. */
export function invitedCode(): string | null {
  return normalizeCode(new URLSearchParams(location.search).get('code'));
}

/** Once in the room, the address bar forgets the invite (a reload resumes the seat instead). */
export function forgetInvite(): void {
  if (location.search) history.replaceState(null, '', location.pathname);
}

const svgs = new Map<string, string>();

/**
 * A box that shows the link's QR code: at once when it was made before, else as soon as the
 * generator has loaded (the box is looked up again by id, since the lobby may have repainted).
 */
export function qrBox(link: string): HTMLElement {
  const box = el('div', { class: 'qr', id: 'invite-qr', role: 'img', 'aria-label': '초대 링크 QR 코드', 'data-link': link });
  const ready = svgs.get(link);
  if (ready) {
    box.innerHTML = ready;
    return box;
  }
  box.textContent = 'QR 코드를 만드는 중…';
  import('./qr')
    .then(({ qrSvg }) => {
      const svg = qrSvg(link);
      svgs.set(link, svg);
      const current = document.getElementById('invite-qr');
      if (current?.dataset.link === link) current.innerHTML = svg;
    })
    .catch(() => {
      const current = document.getElementById('invite-qr');
      if (current?.dataset.link === link) current.textContent = 'QR 코드를 만들지 못했어요. 링크를 보내 주세요.';
    });
  return box;
}

/**
 * Copies the link. The clipboard API needs a secure page (https or localhost); a family playing
 * on the home network over http gets the old way (select the text, copy), and if even that fails,
 * the link stays on screen to copy by hand.
 */
export async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* try the old way below */
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
