import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { NumberField, settledNumber } from './number-field';

/** A form holding one NumberField's value, showing what it would send. */
function Form() {
  const [value, setValue] = useState('');
  return (
    <>
      <NumberField label="Price" unit="USDT" decimals={2} value={value} onChange={setValue} />
      <output aria-label="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        Clear
      </button>
    </>
  );
}

describe('NumberField', () => {
  it('shows the point being typed but keeps the settled number as the value', () => {
    renderWithProviders(<Form />, new QueryClient());
    const input = screen.getByRole('textbox', { name: 'Price' }) as HTMLInputElement;
    const value = () => screen.getByRole('status', { name: 'value' }).textContent;
    fireEvent.change(input, { target: { value: '12.' } });
    expect(input.value).toBe('12.');
    expect(value()).toBe('12');
    fireEvent.change(input, { target: { value: '12.567' } });
    expect(input.value).toBe('12.56');
    expect(value()).toBe('12.56');
    fireEvent.change(input, { target: { value: '.' } });
    expect(input.value).toBe('0.');
    expect(value()).toBe('0');
    // A value the form sets replaces what was typed.
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(input.value).toBe('');
  });

  it('settles only a trailing point', () => {
    expect(settledNumber('12.')).toBe('12');
    expect(settledNumber('12.5')).toBe('12.5');
    expect(settledNumber('')).toBe('');
  });
});
