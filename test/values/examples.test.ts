import { describe, expect, it } from 'vitest';
import { exampleSpans, onlyInExamples } from '../../src/values/examples.js';

const inExamples = (text: string, raw: string) => onlyInExamples(text, raw, exampleSpans(text));

describe('values offered as examples (src/values/examples.ts)', () => {
  it('a sentence from "For example" on is an example; the sentence before and after it are not', () => {
    const text = 'Your lunch starts at 12:30 PM. For example, if it is currently 11:30 AM, you have 1 hour left. It ends at 1:30 PM.';
    expect(inExamples(text, '11:30 AM')).toBe(true);
    expect(inExamples(text, '12:30 PM')).toBe(false);
    expect(inExamples(text, '1:30 PM')).toBe(false);
  });

  it('a parenthesis opened by "e.g." ends at its closing parenthesis; the abbreviation ends no sentence', () => {
    const text = 'Book any slot after 14:00 (e.g. 16:30) and bring your card MK-20417.';
    expect(inExamples(text, '16:30')).toBe(true);
    expect(inExamples(text, 'MK-20417')).toBe(false);
    expect(inExamples('E.g. at 9 a.m. you would still have 3 hours. Your card is MK-20417.', '3 hours')).toBe(true);
    expect(inExamples('E.g. at 9 a.m. you would still have 3 hours. Your card is MK-20417.', 'MK-20417')).toBe(false);
  });

  it('a value stated as a fact and repeated in an example is not only in examples', () => {
    const text = 'It is next free at 15:30. For example, if you start at 15:30, you have until 18:00.';
    expect(inExamples(text, '15:30')).toBe(false);
    expect(inExamples(text, '18:00')).toBe(true);
  });

  it('a plain condition is no example: its values stay asserted', () => {
    const text = 'If you cancel reservation ABC123 now, the refund of $240 goes to your card.';
    expect(exampleSpans(text)).toEqual([]);
    expect(inExamples(text, 'ABC123')).toBe(false);
  });

  it('"let\'s say", "suppose" and "imagine" open examples at any place of a sentence; a line break ends one', () => {
    expect(inExamples("You could, let's say, leave at 07:45 and still make it.", '07:45')).toBe(true);
    expect(inExamples('Suppose the parcel weighs 2.5 kg: the fee doubles.\nYour parcel weighs 1.2 kg.', '2.5 kg')).toBe(true);
    expect(inExamples('Suppose the parcel weighs 2.5 kg: the fee doubles.\nYour parcel weighs 1.2 kg.', '1.2 kg')).toBe(false);
    expect(inExamples('Imagine 40 guests arrive at once.', '40')).toBe(true);
  });

  it('a value that does not occur, or a text with no marker, is not in examples; the spans are bounded', () => {
    expect(inExamples('For example, 10:00.', '11:00')).toBe(false);
    expect(inExamples('It starts at 10:00.', '10:00')).toBe(false);
    expect(exampleSpans('For example, 1. '.repeat(500), 8)).toHaveLength(8);
  });
});
