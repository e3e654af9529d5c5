// Pins how times and ranges are read as written (src/values/dates.ts, by chrono-node): a time at any
// precision (`1 PM`, `10 o'clock`, `7:00 PM`, `19:00:00`) is one typed time; a 12-hour clock with
// no meridiem has both readings, a 24-hour or zero-padded one only its own; a range chrono reads is
// one value whose ends are values of their own (the end's implied meridiem, a year written once);
// a date's text stops where its time starts, on either side; a month name folded onto the next
// line still reads; a clock written `0H:MM` also reads as a duration.
import { describe, it, expect } from 'vitest';
import { readDates } from '../../src/values/dates.js';
import type { TypedValue } from '../../src/values/types.js';

const show = (v: TypedValue): unknown[] => (v.parts ? [v.kind, v.raw, v.parts.map(show)] : [v.kind, v.raw, v.keys]);
const read = (text: string, served = false) => readDates(text, served).map(show);

describe('times at any precision', () => {
  it('reads an hour with its meridiem or "o\'clock", and not a bare number', () => {
    expect(read('The reunion is at 1 PM.')).toEqual([['time', '1 PM', ['t:13:00']]]);
    expect(read('Doors open at 8 a.m. sharp')).toEqual([['time', '8 a.m.', ['t:08:00']]]);
    expect(read('Meet at 10 o\'clock')).toEqual([['time', "10 o'clock", ['t:10:00', 't:22:00']]]);
    expect(read('12 AM and 12 PM')).toEqual([
      ['time', '12 AM', ['t:00:00']],
      ['time', '12 PM', ['t:12:00']],
    ]);
    expect(read('Room 10, floor 3')).toEqual([]);
    expect(read('the 10th floor')).toEqual([]);
  });

  it('a 12-hour clock without a meridiem has both readings; 24-hour, zero-padded and machine clocks only their own', () => {
    expect(read('Lunch ends at 1:30.')).toEqual([['time', '1:30', ['t:01:30', 't:13:30']]]);
    expect(read('Check-in from 16:30')).toEqual([['time', '16:30', ['t:16:30']]]);
    expect(read('Your slot: 08:00')).toEqual([['time', '08:00', ['t:08:00']]]);
    expect(read('Logged 2026-04-14 10:00 by the desk')).toEqual([
      ['date', '2026-04-14', ['d:2026-04-14']],
      ['time', '10:00', ['t:10:00']],
    ]);
    expect(read('at 9:15:30')).toEqual([['time', '9:15:30', ['t:09:15:30']]]);
  });

  it('a served time serves its shorter writings, and a served 12-hour clock both readings', () => {
    expect(readDates('starts 2026-04-14 09:30:00', true).find((v) => v.kind === 'time')?.keys).toEqual(['t:09:30']);
    expect(readDates('Class at 6:45 every Tuesday', true)[0]?.keys).toEqual(['t:06:45', 't:18:45']);
  });

  it('a clock written 0H:MM also reads as hours and minutes', () => {
    expect(readDates('You have 01:30 left.', false)[0]?.duration).toBe(90);
    expect(readDates('You have 00:45 left.', false)[0]?.duration).toBe(45);
    // A time of day only: not padded, with a meridiem, or with seconds.
    expect(readDates('at 1:30', false)[0]?.duration).toBeUndefined();
    expect(readDates('at 01:30 AM', false)[0]?.duration).toBeUndefined();
    expect(readDates('at 01:30:00', false)[0]?.duration).toBeUndefined();
  });
});

describe('ranges', () => {
  it('reads both ends of a time range, with the meridiem written on one or both', () => {
    expect(read('Time: 5:00 PM - 7:00 PM')).toEqual([['range', '5:00 PM - 7:00 PM', [['time', '5:00 PM', ['t:17:00']], ['time', '7:00 PM', ['t:19:00']]]]]);
    expect(read('Lunch (12:30 PM - 1:30 PM)')).toEqual([['range', '12:30 PM - 1:30 PM', [['time', '12:30 PM', ['t:12:30']], ['time', '1:30 PM', ['t:13:30']]]]]);
    expect(read('Lunch 12:30 - 1:30')).toEqual([['range', '12:30 - 1:30', [['time', '12:30', ['t:12:30']], ['time', '1:30', ['t:01:30', 't:13:30']]]]]);
    expect(read('Spin class 18:00–18:45')).toEqual([['range', '18:00–18:45', [['time', '18:00', ['t:18:00']], ['time', '18:45', ['t:18:45']]]]]);
    expect(read('open from 9am to 5pm')).toEqual([['range', '9am to 5pm', [['time', '9am', ['t:09:00']], ['time', '5pm', ['t:17:00']]]]]);
  });

  it('a range after a date keeps the date as a value of its own', () => {
    expect(read('Pilates on 2026-04-14 from 10:00 to 10:50.')).toEqual([
      [
        'range',
        '2026-04-14 from 10:00 to 10:50',
        [
          ['date', '2026-04-14', ['d:2026-04-14']],
          ['time', '10:00', ['t:10:00', 't:22:00']],
          ['time', '10:50', ['t:10:50', 't:22:50']],
        ],
      ],
    ]);
  });

  it('a year written once serves both ends of a date range', () => {
    expect(read('Stay: May 3 - May 5, 2026')).toEqual([['range', 'May 3 - May 5, 2026', [['date', 'May 3', ['d:2026-05-03']], ['date', 'May 5, 2026', ['d:2026-05-05']]]]]);
    expect(read('from 2026-05-03 to 2026-05-05')).toEqual([['range', '2026-05-03 to 2026-05-05', [['date', '2026-05-03', ['d:2026-05-03']], ['date', '2026-05-05', ['d:2026-05-05']]]]]);
  });
});

describe('a date beside its time', () => {
  it("the date's text stops where its time starts, on either side", () => {
    expect(read('June 10th, 2026 at 1 PM')).toEqual([
      ['date', 'June 10th, 2026', ['d:2026-06-10']],
      ['time', '1 PM', ['t:13:00']],
    ]);
    expect(read('1 PM on June 10, 2026')).toEqual([
      ['time', '1 PM', ['t:13:00']],
      ['date', 'June 10, 2026', ['d:2026-06-10']],
    ]);
  });

  it('a month name folded onto the next line with its indent still reads', () => {
    const served = "body: 'The reunion will be at the lake house on June\n    10th 2026 at 1 PM. Bring a dish.'\n  id_: '16'\n  sender: j.miller@example.com\n  subject: Reunion details and directions to the house";
    expect(readDates(served, true).map((v) => v.keys[0])).toEqual(['d:2026-06-10', 't:13:00']);
  });
});

describe('a clock chrono leaves unread', () => {
  it('is read as written beside another (`~`, `/`, an arrow), never inside a longer run of digits', () => {
    expect(read('Slots 10:00 ~ 11:00 or 10:00/11:30')).toEqual([
      ['time', '10:00', ['t:10:00', 't:22:00']],
      ['time', '11:00', ['t:11:00', 't:23:00']],
      ['time', '10:00', ['t:10:00', 't:22:00']],
      ['time', '11:30', ['t:11:30', 't:23:30']],
    ]);
    expect(read('build 1.10:20:33:44')).toEqual([]);
  });
});

describe('a French clock', () => {
  it('reads `10h30` as a 24-hour time, a range of two, and `1h30` also as hours and minutes', () => {
    expect(read('rendez-vous le 14 avril 2026 à 10h30')).toEqual([
      ['date', '14 avril 2026', ['d:2026-04-14']],
      ['time', '10h30', ['t:10:30']],
    ]);
    expect(read('cours de 10h30 à 11h45')).toEqual([['range', '10h30 à 11h45', [['time', '10h30', ['t:10:30']], ['time', '11h45', ['t:11:45']]]]]);
    expect(readDates('La séance dure 1h30.', false)[0]?.duration).toBe(90);
    expect(read('Salle 3h45b')).toEqual([]);
  });
});
