/**
 * A tiny DOM builder. User text (nicknames) only ever goes through text nodes, never innerHTML,
 * so a nickname cannot inject markup; only the bundled SVG art is set as HTML.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(key.replace(/^on/, ''), value);
    else if (key === 'class') node.className = String(value);
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

export function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Trusted markup from the bundle (our own SVG files). */
export function art(svg: string, cls = 'art'): HTMLElement {
  const span = document.createElement('span');
  span.className = cls;
  span.innerHTML = svg;
  span.setAttribute('aria-hidden', 'true');
  return span;
}

export function replace(host: HTMLElement, ...children: Child[]): void {
  host.replaceChildren();
  append(host, children);
}
