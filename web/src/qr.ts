/**
 * The invite's QR code as SVG markup, made in the page (qrcode 1.5, no network). Loaded on its
 * own (a dynamic import: esbuild puts it in a chunk), so only a lobby that shows an invite pays
 * for it.
 */
import { create } from 'qrcode/lib/core/qrcode';
import { render } from 'qrcode/lib/renderer/svg-tag';

export function qrSvg(text: string): string {
  return render(create(text, { errorCorrectionLevel: 'M' }), { margin: 2, color: { dark: '#3b2f4a', light: '#ffffff' } });
}
