// Quality cases for typed grounding (issue 26, src/values; docs/checks-answer.md and
// docs/checks-arguments.md): values a model re-formats (a time with its day offset, a phone in its
// country's grouping, an identifier in other punctuation), localises (other locales' grouping and
// decimal marks, dates in German, French and Spanish words), derives (a date the user asked to
// move, a range from "last month", a refund that is a served negative amount, a total it wrote out
// itself) — each beside a look-alike that is NOT derivable and stays a finding. Domains no other
// case uses (a rail operator, a hotel desk, a dental clinic, a water utility, a parts wholesaler),
// written as agents write; never copies of real runs. Data only; expectations come from the rules.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { declarations, readOnlyTool, str, tool } from './common.js';

const read = readOnlyTool;

// ---- Rail: bookings with day-offset arrival times, moved by the user's words ----
const RAIL_SYSTEM = 'You are the booking assistant of Nordbahn. The current time is 2026-03-10 09:00 CET. Quote times as the timetable gives them.';
const RAIL_TOOLS: Record<string, ToolDefinition> = {
  get_booking: tool('One booking with its legs.', { booking_ref: str('Booking reference, six letters and digits.') }, ['booking_ref']),
  search_trains: tool('Trains between two stations on one date.', { from: str('Station code.'), to: str('Station code.'), date: str('Travel date, YYYY-MM-DD.') }, ['from', 'to', 'date']),
  change_booking: tool('Move a booking to another train (writes).', { booking_ref: str('Booking reference.'), train: str('Train number as search_trains returns it.'), date: str('Travel date, YYYY-MM-DD.') }, ['booking_ref', 'train', 'date']),
};
const railDecl = declarations([read(RAIL_TOOLS, 'get_booking'), read(RAIL_TOOLS, 'search_trains'), ['change_booking', { argumentsFrom: ['get_booking', 'search_trains'], inputSchema: RAIL_TOOLS['change_booking']!.parameters }]]);
const BOOKING = { booking_ref: 'NB7K2Q', passenger: 'Ilse Brandt', legs: [{ train: 'NJ 4710', from: 'HAM', to: 'MUC', date: '2026-03-14', departs: '22:40:00', arrives: '06:55:00+1', fare_eur: 89.9 }], paid_eur: 89.9 };
const TRAINS_15 = [
  { train: 'NJ 4710', date: '2026-03-15', departs: '22:40:00', arrives: '06:55:00+1', fare_eur: 94.9, seats_left: 12 },
  { train: 'ICE 1521', date: '2026-03-15', departs: '13:02:00', arrives: '18:41:00', fare_eur: 119.0, seats_left: 40 },
];
const railBase = { system: RAIL_SYSTEM, tools: RAIL_TOOLS, declarations: railDecl };
const bookingStep = { calls: [{ name: 'get_booking', args: { booking_ref: 'NB7K2Q' }, result: BOOKING }] };

// ---- Hotel desk: a refund served as a negative ledger entry ----
const HOTEL_SYSTEM = 'You are the front-desk assistant of Hotel Lindenhof. Answer only from the folio tools.';
const HOTEL_TOOLS: Record<string, ToolDefinition> = { get_folio: tool("A guest's folio: charges and refunds.", { folio_no: str('Folio number, e.g. F-20931.') }, ['folio_no']) };
const hotelBase = { system: HOTEL_SYSTEM, tools: HOTEL_TOOLS, declarations: declarations([read(HOTEL_TOOLS, 'get_folio')]) };
const FOLIO = { folio_no: 'F-20931', guest: 'Marta Nowak', lines: [{ date: '2026-02-02', item: 'Room 214, 3 nights', amount_eur: 447.0 }, { date: '2026-02-05', item: 'Minibar', amount_eur: 18.5 }, { date: '2026-02-06', item: 'Refund: early checkout, 1 night', amount_eur: -149.9 }], balance_eur: 315.6 };
const folioStep = { calls: [{ name: 'get_folio', args: { folio_no: 'F-20931' }, result: FOLIO }] };

// ---- Dental clinic: a phone in UK grouping, dates in other languages ----
const CLINIC_SYSTEM = 'You are the appointment assistant of Harbourside Dental, London. Answer in the language the patient writes in.';
const CLINIC_TOOLS: Record<string, ToolDefinition> = { find_patient: tool('A patient record with next appointment and contact number.', { patient_no: str('Patient number, e.g. HD-40917.') }, ['patient_no']) };
const clinicBase = { system: CLINIC_SYSTEM, tools: CLINIC_TOOLS, declarations: declarations([read(CLINIC_TOOLS, 'find_patient')]) };
const PATIENT = { patient_no: 'HD-40917', name: 'Aoife Byrne', phone: '+442079460958', next_appointment: '2026-04-21T10:30:00', dentist: 'Dr. Okafor' };
const patientStep = { calls: [{ name: 'find_patient', args: { patient_no: 'HD-40917' }, result: PATIENT }] };

// ---- Water utility: amounts in other locales' marks, a month range, units ----
const WATER_SYSTEM = 'You are the billing assistant of Aqualis Wasser. Today is 2026-12-04.';
const WATER_TOOLS: Record<string, ToolDefinition> = {
  billing_summary: tool('Invoice totals and consumption of an account.', { account_no: str('Account number, e.g. AQ-551208.') }, ['account_no']),
  consumption: tool('Metered water consumption of an account between two dates.', { account_no: str('Account number.'), from: str('Start date, YYYY-MM-DD.'), to: str('End date, YYYY-MM-DD.') }, ['account_no', 'from', 'to']),
};
const waterDecl = declarations([read(WATER_TOOLS, 'billing_summary'), read(WATER_TOOLS, 'consumption', { argumentsFrom: ['billing_summary'] })]);
const waterBase = { system: WATER_SYSTEM, tools: WATER_TOOLS, declarations: waterDecl };
const BILL = { account_no: 'AQ-551208', holder: 'Familie Demir', invoice_total_eur: 12345.5, annual_consumption_litres: 148250, meter_no: 'wm_7731_b' };
const billStep = { calls: [{ name: 'billing_summary', args: { account_no: 'AQ-551208' }, result: BILL }] };

// ---- Parts wholesaler: a total the model wrote out itself ----
const PARTS_SYSTEM = 'You are the order assistant of Kessler Industrieteile. Use the notes tool to work out totals before you answer.';
const PARTS_TOOLS: Record<string, ToolDefinition> = {
  open_orders: tool("A customer's open orders with their totals.", { customer_no: str('Customer number, e.g. K-30418.') }, ['customer_no']),
  notes: tool('Write down a working note; returns nothing.', { note: str('The note.') }, ['note']),
};
const partsBase = { system: PARTS_SYSTEM, tools: PARTS_TOOLS, declarations: declarations([read(PARTS_TOOLS, 'open_orders')]) };
const ORDERS = { customer_no: 'K-30418', orders: [{ order: 'SO-7781', total_eur: 1240 }, { order: 'SO-7794', total_eur: 385 }, { order: 'SO-7802', total_eur: 2917 }, { order: 'SO-7815', total_eur: 46 }] };
const ordersStep = { calls: [{ name: 'open_orders', args: { customer_no: 'K-30418' }, result: ORDERS }] };

export const TYPED_VALUE_CASES: CaseSpec[] = [
  {
    name: 'uv-clean-day-offset-arrival',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a served arrival "06:55:00+1" restated as "06:55+1" and as "6:55 AM (next day)"',
    kind: 'clean',
    note: 'A time with its day offset is the same time written shorter; the "+1" is a day, not a time zone.',
    expect: [],
    ...railBase,
    turns: [{ user: 'When does my night train NB7K2Q get in?', steps: [bookingStep], answer: 'Your night train NJ 4710 leaves Hamburg on 2026-03-14 at 22:40 and arrives in Munich at 06:55+1, that is 6:55 AM the next morning.' }],
  },
  {
    name: 'uv-defect-day-offset-wrong-minutes',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a day-offset arrival with the wrong minutes ("07:25+1" for a served 06:55:00+1)',
    kind: 'defect',
    note: 'No served time is 07:25, with or without its day offset.',
    expect: [{ check: 'unsupported-value', value: '07:25+1' }],
    ...railBase,
    turns: [{ user: 'What time does NB7K2Q arrive?', steps: [bookingStep], answer: 'NJ 4710 arrives in Munich at 07:25+1 (the morning after departure).' }],
  },
  {
    name: 'uv-clean-next-day-search-restated',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'the user asks to move the trip "to the following day"; the answer gives the new date in words',
    kind: 'clean',
    note: 'The booking served 2026-03-14; "the following day" makes 15 March 2026, which the search also served. The fare and times are served as written.',
    expect: [],
    ...railBase,
    turns: [
      {
        user: 'I need to push my trip NB7K2Q to the following day, same night train if possible.',
        steps: [bookingStep, { calls: [{ name: 'search_trains', args: { from: 'HAM', to: 'MUC', date: '2026-03-15' }, result: TRAINS_15 }] }],
        answer: 'On Sunday, 15 March 2026 the same night train NJ 4710 runs at 22:40 (arriving 06:55+1) for €94.90, with 12 seats left. Shall I move your booking?',
      },
    ],
  },
  {
    name: 'uv-clean-move-back-one-day-unsearched',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'the answer restates a date the user asked for in words ("move it back one day"), before any search',
    kind: 'clean',
    note: 'The served 2026-03-14 moved one day by the user\'s own words is 2026-03-15 (the direction of "back" is read both ways).',
    expect: [],
    ...railBase,
    turns: [{ user: 'Can you move my booking NB7K2Q back one day?', steps: [bookingStep], answer: 'Sure: I will look for trains from Hamburg to Munich on 2026-03-15 instead of 2026-03-14. Do you want the night train again?' }],
  },
  {
    name: 'uv-defect-moved-date-two-days',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'the user asks for "the following day"; the answer offers a date two days later that nothing served',
    kind: 'defect',
    note: '2026-03-16 is neither the served date nor one day after it, and no search served it.',
    expect: [{ check: 'unsupported-value', value: '2026-03-16' }],
    ...railBase,
    turns: [{ user: 'Please move NB7K2Q to the following day.', steps: [bookingStep], answer: 'Done deal in principle: I will look for the NJ 4710 on 16 March 2026 for you.' }],
  },
  {
    name: 'ua-clean-search-date-following-day',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'change_booking gets a date one day after the served one, as the user asked ("the day after")',
    kind: 'clean',
    note: 'The date argument is derived from the served 2026-03-14 and the user\'s "the day after": a pass, the arithmetic kept as witness; the train is served.',
    expect: [],
    ...railBase,
    turns: [
      {
        user: 'Please rebook NB7K2Q onto the same train the day after.',
        steps: [bookingStep, { calls: [{ name: 'change_booking', args: { booking_ref: 'NB7K2Q', train: 'NJ 4710', date: '2026-03-15' }, result: { booking_ref: 'NB7K2Q', status: 'changed' } }] }],
        answer: 'Your booking NB7K2Q is now on NJ 4710 the day after, departing 22:40.',
      },
    ],
  },
  {
    name: 'ua-defect-search-date-unasked',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'change_booking gets a date three days after the served one, with no words of the user that say so',
    kind: 'defect',
    note: '2026-03-17 is served by nothing, and "later" names no amount: nothing derives it.',
    expect: [{ check: 'unsupported-argument', tool: 'change_booking', value: '2026-03-17' }],
    ...railBase,
    turns: [
      {
        user: 'Please rebook NB7K2Q onto a later train.',
        steps: [bookingStep, { calls: [{ name: 'change_booking', args: { booking_ref: 'NB7K2Q', train: 'NJ 4710', date: '2026-03-17' }, result: { booking_ref: 'NB7K2Q', status: 'changed' } }] }],
        answer: 'Your booking NB7K2Q is now on NJ 4710, departing 22:40.',
      },
    ],
  },
  {
    name: 'uv-clean-refund-is-served-negative',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a refund of €149.90 stated positive for a served ledger line of -149.9',
    kind: 'clean',
    note: 'A refund written without its minus sign is the served amount with its sign moved.',
    expect: [],
    ...hotelBase,
    turns: [{ user: 'Did I get anything back for leaving early? Folio F-20931.', steps: [folioStep], answer: 'Yes: a refund of €149.90 for the night you did not stay was booked to folio F-20931 on 2026-02-06; your balance is €315.60.' }],
  },
  {
    name: 'uv-defect-refund-digits-swapped',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a refund of €194.90 where the folio served -149.9',
    kind: 'defect',
    note: 'No sign, rounding or sum of served amounts makes 194.90.',
    expect: [{ check: 'unsupported-value', value: '194.90' }],
    ...hotelBase,
    turns: [{ user: 'How much was refunded on folio F-20931?', steps: [folioStep], answer: 'We refunded €194.90 to folio F-20931 for the early checkout.' }],
  },
  {
    name: 'uv-clean-total-written-out-by-the-model',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a total of four served order amounts that the model added up in its own working note',
    kind: 'clean',
    note: 'Four operands is past the three-operand arithmetic search, but the model wrote the sum out (1240 + 385 + 2917 + 46 = 4588), every operand is served and the arithmetic is right.',
    expect: [],
    ...partsBase,
    turns: [
      {
        user: 'What do all open orders of K-30418 add up to?',
        steps: [ordersStep, { calls: [{ name: 'notes', args: { note: 'Open orders K-30418: 1240 + 385 + 2917 + 46 = 4588 EUR' }, result: '' }] }],
        answer: 'The four open orders of K-30418 (SO-7781, SO-7794, SO-7802 and SO-7815) come to €4,588 in total.',
      },
    ],
  },
  {
    name: 'uv-defect-total-written-out-wrong',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a total the model wrote out with wrong arithmetic (4,688 for four amounts that make 4,588)',
    kind: 'defect',
    note: 'The note states 1240 + 385 + 2917 + 46 = 4688: the operands are served but the sum is wrong, so it derives nothing.',
    expect: [{ check: 'unsupported-value', value: '4,688' }],
    ...partsBase,
    turns: [
      {
        user: 'Total of the open orders for K-30418, please.',
        steps: [ordersStep, { calls: [{ name: 'notes', args: { note: 'Total = 1240 + 385 + 2917 + 46 = 4688' }, result: '' }] }],
        answer: 'Your open orders add up to €4,688.',
      },
    ],
  },
  {
    name: 'uv-clean-french-and-swiss-marks',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a served 12345.5 written the French way ("12 345,50 €") and 148250 litres the Swiss way ("148\'250")',
    kind: 'clean',
    note: 'Grouping and decimal marks of fr-FR and de-CH (CLDR): the same numbers.',
    expect: [],
    ...waterBase,
    turns: [{ user: 'Quel est le total de ma facture, compte AQ-551208 ?', steps: [billStep], answer: "Le total de votre facture est de 12 345,50 € pour une consommation annuelle de 148'250 litres." }],
  },
  {
    name: 'uv-defect-french-amount-wrong',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a French-formatted amount with two digits swapped ("12 354,50 €" for 12345.5)',
    kind: 'defect',
    note: 'Read as the French number it is, 12354.5 is served by nothing.',
    expect: [{ check: 'unsupported-value', value: '12 354,50' }],
    ...waterBase,
    turns: [{ user: 'Montant de la facture pour AQ-551208 ?', steps: [billStep], answer: 'Votre facture s\'élève à 12 354,50 €.' }],
  },
  {
    name: 'uv-clean-meter-id-other-punctuation',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a served meter id "wm_7731_b" written "WM-7731-B"',
    kind: 'clean',
    note: 'The same identifier modulo case and punctuation.',
    expect: [],
    ...waterBase,
    turns: [{ user: 'Which meter is on account AQ-551208?', steps: [billStep], answer: 'Account AQ-551208 is read from meter WM-7731-B.' }],
  },
  {
    name: 'uv-clean-consumption-in-cubic-metres',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a served annual_consumption_litres 148250 stated as "148.25 m³" and "about 148,000 litres"',
    kind: 'clean',
    note: 'A unit conversion (litres to cubic metres, by js-quantities) and a hedged rounding.',
    expect: [],
    ...waterBase,
    turns: [{ user: 'How much water did AQ-551208 use this year?', steps: [billStep], answer: 'Account AQ-551208 used 148.25 m³ this year, about 148,000 litres.' }],
  },
  {
    name: 'ua-clean-last-month-range',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'consumption asked for "last month": from = the first and to = the last day of the month before today',
    kind: 'clean',
    note: 'Today is 2026-12-04 (system prompt); last month is 2026-11, whose first and last days are the arguments: derived, a pass.',
    expect: [],
    ...waterBase,
    turns: [
      {
        user: 'How much water did AQ-551208 use last month?',
        steps: [billStep, { calls: [{ name: 'consumption', args: { account_no: 'AQ-551208', from: '2026-11-01', to: '2026-11-30' }, result: { account_no: 'AQ-551208', litres: 12140 } }] }],
        answer: 'Account AQ-551208 used 12,140 litres last month.',
      },
    ],
  },
  {
    name: 'ua-defect-range-wrong-month',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'consumption asked for "last month" but called for October',
    kind: 'defect',
    note: 'Last month from 2026-12-04 is November: 2026-10-01 and 2026-10-31 derive from nothing the user said.',
    expect: [
      { check: 'unsupported-argument', tool: 'consumption', value: '2026-10-01' },
      { check: 'unsupported-argument', tool: 'consumption', value: '2026-10-31' },
    ],
    ...waterBase,
    turns: [
      {
        user: 'What was my consumption last month? Account AQ-551208.',
        steps: [billStep, { calls: [{ name: 'consumption', args: { account_no: 'AQ-551208', from: '2026-10-01', to: '2026-10-31' }, result: { account_no: 'AQ-551208', litres: 11870 } }] }],
        answer: 'Last month you used 11,870 litres.',
      },
    ],
  },
  {
    name: 'uv-clean-phone-uk-grouping-and-dates-in-words',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a served +442079460958 written "020 7946 0958", and the appointment date in German and Spanish words',
    kind: 'clean',
    note: 'A UK number in its national grouping (libphonenumber-js); "21. April 2026" and "21 de abril de 2026" are the served 2026-04-21 (chrono-node). Turn 2 restates turn 1 with no new lookup: prior-turn-evidence may say so.',
    expect: [],
    acceptable: [{ check: 'prior-turn-evidence', advisory: true }],
    ...clinicBase,
    turns: [
      { user: 'When is my next appointment? Patient HD-40917.', steps: [patientStep], answer: 'Ihr nächster Termin ist am 21. April 2026 um 10:30 bei Dr. Okafor. Wir erreichen Sie unter 020 7946 0958.' },
      { user: '¿Y en español?', steps: [], answer: 'Su próxima cita es el 21 de abril de 2026 a las 10:30 con el Dr. Okafor.' },
    ],
    memory: 'full',
  },
  {
    name: 'uv-defect-date-in-german-words-wrong',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'an appointment date in German words one day off ("22. April 2026" for 2026-04-21)',
    kind: 'defect',
    note: 'Read as the date it is, 2026-04-22 is served by nothing; its year alone would have passed.',
    expect: [{ check: 'unsupported-value', value: '2026-04-22' }],
    ...clinicBase,
    turns: [{ user: 'Wann ist mein nächster Termin? Patientennummer HD-40917.', steps: [patientStep], answer: 'Ihr nächster Termin ist am 22. April 2026 um 10:30 Uhr.' }],
  },
  {
    name: 'uv-defect-phone-uk-grouping-wrong-digit',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'the UK number in national grouping with one digit wrong ("020 7946 0985")',
    kind: 'defect',
    note: 'The phone 2079460985 is served by nothing.',
    expect: [{ check: 'unsupported-value' }],
    ...clinicBase,
    turns: [{ user: 'What number do you have for me? HD-40917.', steps: [patientStep], answer: 'We have 020 7946 0985 on file for you.' }],
  },
  {
    name: 'uv-clean-amount-in-words',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a served invoice total written in words, in English and in German ("twelve thousand three hundred forty-five euros")',
    kind: 'clean',
    note: 'n2words writes the served 12345 as these words in each language; the cents are not data.',
    expect: [],
    ...waterBase,
    turns: [{ user: 'Can you spell out my invoice total for the cheque? AQ-551208.', steps: [billStep], answer: 'Your invoice total is €12,345.50: twelve thousand three hundred forty-five euros and fifty cents (auf Deutsch: zwölftausenddreihundertfünfundvierzig Euro und fünfzig Cent).' }],
  },
  {
    name: 'uv-defect-amount-in-words-wrong',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'an invoice total in words that is not the served amount ("twelve thousand four hundred forty-five")',
    kind: 'defect',
    note: 'No served number is written as these words.',
    expect: [{ check: 'unsupported-value', value: 'twelve thousand four hundred forty-five' }],
    ...waterBase,
    turns: [{ user: 'Please write my invoice total in words. Account AQ-551208.', steps: [billStep], answer: 'Your invoice total in words: twelve thousand four hundred forty-five euros and fifty cents.' }],
  },
];
