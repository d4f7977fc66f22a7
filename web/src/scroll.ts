/**
 * Keeping what the child must tap in sight. The sticky status stack (banner, whose turn and its
 * clock, a notice) holds the top of the viewport, and the dock (the lobby's and the results' next
 * step) its bottom; between them is the band where a button can be seen and tapped. Scrolls are
 * instant: a page that glides while a finger comes down gets the wrong tap.
 */
const MARGIN = 8;

function band(): { top: number; bottom: number } {
  const status = document.getElementById('status');
  const top = status ? Math.max(0, status.getBoundingClientRect().bottom) : 0;
  const dock = document.getElementById('dock');
  const dockTop = dock && dock.childElementCount > 0 ? dock.getBoundingClientRect().top : window.innerHeight;
  return { top, bottom: Math.min(window.innerHeight, dockTop) };
}

function span(elements: Element[]): { top: number; bottom: number } | null {
  const rects = elements.map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
  if (rects.length === 0) return null;
  return { top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
}

/**
 * Scrolls the least that shows all of `elements` below the status stack. When they cannot all
 * fit, `fallback` (the part that matters most, e.g. the buttons alone) is shown instead, and if
 * even that is too tall, its top is.
 */
export function bringIntoView(elements: (Element | null)[], fallback: (Element | null)[] = []): void {
  const zone = span(elements.filter((e): e is Element => e !== null));
  if (!zone) return;
  const { top, bottom } = band();
  const room = bottom - top;
  if (zone.bottom - zone.top > room - 2 * MARGIN) {
    const rest = fallback.filter((e): e is Element => e !== null);
    if (rest.length > 0) return bringIntoView(rest);
    window.scrollBy(0, zone.top - top - MARGIN);
    return;
  }
  if (zone.top < top) window.scrollBy(0, zone.top - top - MARGIN);
  else if (zone.bottom > bottom) window.scrollBy(0, zone.bottom - bottom + MARGIN);
}

export function scrollToTop(): void {
  window.scrollTo(0, 0);
}
