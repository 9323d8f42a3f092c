import { describe, expect, it } from 'vitest';
import { inertHtml, internalPath } from './content-html';

describe('inertHtml', () => {
  it('drops scripts, event attributes and javascript: links', () => {
    const out = inertHtml('<p onclick="alert(1)">Hi<script>alert(2)</script></p><a href="javascript:alert(3)">x</a><img src="x" onerror="alert(4)"><iframe srcdoc="<script>alert(5)</script>"></iframe>');
    expect(out).not.toMatch(/script|onclick|onerror|javascript|iframe|alert/i);
    expect(out).toContain('<p>Hi</p>');
  });
  it('keeps text, relative links and https links, which open apart', () => {
    const out = inertHtml('<h2>Fees</h2><p>See <a href="/rule/index?modelType=6">rules</a> and <a href="https://example.com">this</a>.</p>');
    expect(out).toContain('<a href="/rule/index?modelType=6">rules</a>');
    expect(out).toContain('target="_blank"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
  });
  it('shows escaped markup as text', () => {
    expect(inertHtml('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });
});

describe('internalPath', () => {
  it('accepts in-app paths only', () => {
    expect(internalPath('/about/index')).toBe('/about/index');
    expect(internalPath('//evil.example/x')).toBeNull();
    expect(internalPath('https://example.com')).toBeNull();
    expect(internalPath(null)).toBeNull();
  });
});
