/**
 * The content store's bodies arrive as sanitised HTML (docs/api.md "Content": no `script`, `style`,
 * event attributes or `javascript:` links survive the server). Before the webapp puts a body into
 * the page it parses it once more with the browser's inert `DOMParser` (nothing in a parsed document
 * runs) and drops the same things again, so that a server bug alone cannot run code here.
 *
 * @module
 */

const DROPPED = 'script, style, iframe, frame, frameset, object, embed, link, meta, base, form, input, button, textarea, select, svg, math, template, noscript';
const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'action', 'formaction', 'srcset', 'poster'];

/** Whether a link or image address is safe: relative, `http(s):`, `mailto:` or an image `data:` URL. */
function safeUrl(value: string, attribute: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme (`java\tscript:`).
  const trimmed = [...value].filter((c) => c.charCodeAt(0) > 0x20).join('').toLowerCase();
  if (!/^[a-z][a-z0-9+.-]*:/.test(trimmed)) return true;
  if (trimmed.startsWith('http:') || trimmed.startsWith('https:') || trimmed.startsWith('mailto:')) return true;
  return attribute === 'src' && /^data:image\/(png|jpeg|gif|webp);/.test(trimmed);
}

/** `html` with anything that could run removed (see the module's note); external links open apart. */
export function inertHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const element of Array.from(doc.body.querySelectorAll(DROPPED))) element.remove();
  for (const element of Array.from(doc.body.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on') || name === 'style' || name === 'srcdoc') element.removeAttribute(attribute.name);
      else if (URL_ATTRIBUTES.includes(name) && !safeUrl(attribute.value, name)) element.removeAttribute(attribute.name);
    }
    if (element.tagName === 'A' && /^https?:/i.test(element.getAttribute('href') ?? '')) {
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  }
  return doc.body.innerHTML;
}

/** The in-app path an anchor's `href` names (`/…`, not `//…`), else `null`. */
export function internalPath(href: string | null): string | null {
  if (!href || !href.startsWith('/') || href.startsWith('//')) return null;
  return href;
}
