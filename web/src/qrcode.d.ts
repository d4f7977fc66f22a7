// qrcode 1.5's own modules, used directly (its @types describe the Node entry and pull in Node's types).
declare module 'qrcode/lib/core/qrcode' {
  export interface QrData {
    modules: { size: number };
  }
  export function create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): QrData;
}
declare module 'qrcode/lib/renderer/svg-tag' {
  import type { QrData } from 'qrcode/lib/core/qrcode';
  export function render(data: QrData, options?: { margin?: number; width?: number; color?: { dark?: string; light?: string } }): string;
}
