// Pins amounts in words (src/values/words.ts): runs of number words holding a scale word are read
// in English, German, French, Spanish, Italian, Portuguese and Dutch with vocabularies learned
// from n2words, and grounded when n2words writes a served number as the same words; a scale word
// alone ("thousands of", "a thousand thanks") is no amount; a wrong amount in words is a finding.
import { describe, it, expect } from 'vitest';
import { readWordAmounts, rendersAs } from '../../src/values/words.js';
import { unsupportedValues, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';

const amounts = (text: string) => readWordAmounts(text, 8).map((a) => [a.raw, a.language]);

describe('amounts in words', () => {
  it('finds runs of number words in seven languages, one-word amounts included', () => {
    expect(amounts('You will get two thousand five hundred eighty dollars back.')).toEqual([['two thousand five hundred eighty', 'en']]);
    expect(amounts('Sie erhalten zwölftausendvierhundertachtzig Euro.')).toEqual([['zwölftausendvierhundertachtzig', 'de']]);
    expect(amounts('Le total est de douze mille quatre cent quatre-vingts euros.')).toEqual([['douze mille quatre cent quatre-vingts', 'fr']]);
    expect(amounts('El total es de doce mil cuatrocientos ochenta euros.')).toEqual([['doce mil cuatrocientos ochenta', 'es']]);
    expect(amounts('Il totale è dodicimilaquattrocentottanta euro.')).toEqual([['dodicimilaquattrocentottanta', 'it']]);
    expect(amounts('Totaal: twaalfduizend vierhonderdtachtig euro.')).toEqual([['twaalfduizend vierhonderdtachtig', 'nl']]);
  });

  it('a scale word alone is no amount', () => {
    expect(amounts('A thousand thanks; thousands of users; tausend Dank; mille mercis.')).toEqual([]);
  });

  it('compares in n2words\' direction: the served number written as words', () => {
    const [a] = readWordAmounts('two thousand five hundred and eighty', 1);
    expect([rendersAs(a!, 2580), rendersAs(a!, 2590), rendersAs(a!, 2580.5), rendersAs(a!, 580)]).toEqual([true, false, true, false]);
  });

  it('unsupported-value grounds a right amount in words and reports a wrong one', () => {
    const windowResults = [{ text: '{"refund_eur":2580}', toolName: 'get_refund', callId: 'call_r1', request: 1 }];
    const judge = (answerText: string) => unsupportedValues({ span: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) }, answerText, windowResults, exemptTexts: ['How much do I get back?'], bounds: DEFAULT_EVIDENCE_BOUNDS });
    expect(judge('You get two thousand five hundred eighty euros back.').findings).toEqual([]);
    expect(judge('You get two thousand five hundred ninety euros back.').findings.map((f) => f.value)).toEqual(['two thousand five hundred ninety']);
  });
});
