// Quality cases for values as users write them (issue 35, item 2; docs/values.md): a served instant
// restated at another precision or in 12-hour form (`8 AM` served, `08:00` answered; `13:00:00`
// served, `1:00 PM` answered) or in French (`10h30`), a time range built from two served times
// with its meridiem written once, a rating over its scale (`4.6/5`, `3.9 out of 5`), a price range
// from two served prices, hours and minutes between two served times (`01:30`), an end time that
// is a served start moved by the user's "an hour and a half", a date whose month name a text
// result folded onto the next line — each beside a look-alike no tool served that stays a finding
// (a range end, a class time, a booking's end, a rating, a week's price, a time the model only
// ever wrote itself).
// Domains no other case uses (a physiotherapy practice, a climbing gym, a hotel search, a kayak
// tour operator), written as agents write; never copies of real runs. Data only; expectations come
// from the rules.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { declarations, readOnlyTool, str, tool } from './common.js';

const read = readOnlyTool;

// ---- Physiotherapy practice: free slots, dumped as text (a program's YAML-like output) ----
const PHYSIO_SYSTEM = 'You are the booking assistant of Harbour Physio. Today is Monday, 13 April 2026. Answer from the tools only.';
const PHYSIO_TOOLS: Record<string, ToolDefinition> = {
  free_slots: tool('Free treatment slots of one day.', { date: str('Day, YYYY-MM-DD.') }, ['date']),
  my_appointments: tool("The patient's booked appointments of one day.", { date: str('Day, YYYY-MM-DD.') }, ['date']),
};
const physioBase = { system: PHYSIO_SYSTEM, tools: PHYSIO_TOOLS, declarations: declarations([read(PHYSIO_TOOLS, 'free_slots'), read(PHYSIO_TOOLS, 'my_appointments')]) };
const SLOTS_TEXT = [
  '- slot_id: HP-5531',
  '  starts: 2026-04-14 09:30:00',
  '  ends: 2026-04-14 10:15:00',
  '  therapist: Rachel Osei',
  '  room: Treatment 2',
  '- slot_id: HP-5532',
  '  starts: 2026-04-14 13:00:00',
  '  ends: 2026-04-14 13:45:00',
  '  therapist: Rachel Osei',
  '  room: Treatment 2',
  '- slot_id: HP-5540',
  '  starts: 2026-04-14 16:30:00',
  '  ends: 2026-04-14 17:15:00',
  '  therapist: Marek Varga',
  '  room: Gym floor',
].join('\n');
const slotsStep = { calls: [{ name: 'free_slots', args: { date: '2026-04-14' }, result: SLOTS_TEXT }] };
const APPOINTMENTS_TEXT = [
  '- appointment_id: HP-A-20417',
  '  kind: Shoulder rehab',
  '  starts: 2026-04-14 09:30:00',
  '  ends: 2026-04-14 10:15:00',
  '  location: Harbour Physio, Treatment 2',
  '- appointment_id: HP-A-20422',
  '  kind: Ultrasound scan',
  '  starts: 2026-04-14 11:45:00',
  '  ends: 2026-04-14 12:05:00',
  '  location: Quayside Imaging, Level 1',
].join('\n');
const appointmentsStep = { calls: [{ name: 'my_appointments', args: { date: '2026-04-14' }, result: APPOINTMENTS_TEXT }] };

// ---- Climbing gym: the class schedule, as JSON date-times ----
const GYM_SYSTEM = 'You are the front-desk assistant of Crux Climbing Hall. Today is 2026-05-04.';
const GYM_TOOLS: Record<string, ToolDefinition> = {
  class_schedule: tool('Classes of one day with start and end.', { date: str('Day, YYYY-MM-DD.') }, ['date']),
  book_wall: tool('Book the training wall (writes). Returns the booking with its start.', { date: str('Day, YYYY-MM-DD.'), start: str('Start, HH:MM.'), minutes: { type: 'integer', description: 'Length in minutes.' } }, ['date', 'start', 'minutes']),
};
const gymBase = { system: GYM_SYSTEM, tools: GYM_TOOLS, declarations: declarations([read(GYM_TOOLS, 'class_schedule'), ['book_wall', { inputSchema: GYM_TOOLS['book_wall']!.parameters }]]) };
const wallStep = { calls: [{ name: 'book_wall', args: { date: '2026-05-06', start: '14:00', minutes: 90 }, result: { booking_id: 'CX-B-4471', wall: 'Training wall 2', starts: '2026-05-06T14:00:00', status: 'confirmed' } }] };
const CLASSES = {
  date: '2026-05-06',
  classes: [
    { class_id: 'CX-3108', title: 'Bouldering basics', starts: '2026-05-06T10:00:00', ends: '2026-05-06T11:30:00', spots_left: 4 },
    { class_id: 'CX-3112', title: 'Lead climbing course', starts: '2026-05-06T19:00:00', ends: '2026-05-06T21:00:00', spots_left: 2 },
    { class_id: 'CX-3115', title: 'Mobility for climbers', starts: '2026-05-06T18:00:00', ends: '2026-05-06T18:50:00', spots_left: 9 },
  ],
};
const classesStep = { calls: [{ name: 'class_schedule', args: { date: '2026-05-06' }, result: CLASSES }] };

// ---- Hotel search: ratings and nightly price ranges ----
const HOTEL_SYSTEM = 'You are a travel assistant. Quote ratings and prices from the search results only.';
const HOTEL_TOOLS: Record<string, ToolDefinition> = {
  search_hotels: tool('Hotels in a city with rating, review count and nightly price range.', { city: str('City name.') }, ['city']),
  weekly_rates: tool('Seven-night rates of one hotel.', { hotel: str('Hotel name as search_hotels returns it.') }, ['hotel']),
};
const hotelBase = {
  system: HOTEL_SYSTEM,
  tools: HOTEL_TOOLS,
  declarations: declarations([read(HOTEL_TOOLS, 'search_hotels'), read(HOTEL_TOOLS, 'weekly_rates', { argumentsFrom: ['search_hotels'] })]),
};
const HOTELS = {
  city: 'Lisbon',
  hotels: [
    { name: 'Casa Lumen', rating: 4.6, reviews: 1342, price_min: 128.0, price_max: 214.0, currency: 'EUR' },
    { name: 'Hotel Brisa', rating: 3.9, reviews: 287, price_min: 89.0, price_max: 131.0, currency: 'EUR' },
    { name: 'Alfama Loft Suites', rating: 4.3, reviews: 2015, price_min: 162.0, price_max: 305.0, currency: 'EUR' },
  ],
};
const hotelsStep = { calls: [{ name: 'search_hotels', args: { city: 'Lisbon' }, result: HOTELS }] };
const WEEKLY = { hotel: 'Casa Lumen', nights: 7, total_min_eur: 896.0, total_max_eur: 1498.0, cleaning_fee_eur: 35.0 };

// ---- Kayak tours: a departure announced in prose ----
const KAYAK_SYSTEM = 'You are the booking assistant of Tidewater Kayaks. Use the tools for tour details.';
const KAYAK_TOOLS: Record<string, ToolDefinition> = {
  list_tours: tool('Tours on offer with their code, name and length.', {}, []),
  tour_notice: tool('The latest notice to participants of one tour, as written by the guide.', { tour_code: str('Tour code, e.g. TK-SUN-0608.') }, ['tour_code']),
};
const kayakBase = { system: KAYAK_SYSTEM, tools: KAYAK_TOOLS, declarations: declarations([read(KAYAK_TOOLS, 'list_tours'), read(KAYAK_TOOLS, 'tour_notice')]) };
const TOURS = [
  { tour_code: 'TK-SUN-0608', name: 'Sunrise Paddle', length_hours: 3, level: 'beginner' },
  { tour_code: 'TK-FAM-0614', name: 'Family picnic paddle', length_hours: 4, level: 'family' },
];
const toursStep = { calls: [{ name: 'list_tours', args: {}, result: TOURS }] };
const NOTICE =
  'Hi all, tide tables are in: the Sunrise Paddle TK-SUN-0608 leaves at 8 AM sharp from Pier 3 (not Pier 5 as in the brochure). We are back around 11. The family picnic paddle moves to June\n    14th 2026 at 1 PM, same pier. Bring water and a hat. - Guide Ana';
const noticeStep = { calls: [{ name: 'tour_notice', args: { tour_code: 'TK-SUN-0608' }, result: NOTICE }] };

export const VALUES_AS_WRITTEN_CASES: CaseSpec[] = [
  {
    name: 'uv-clean-physio-slot-ranges-12h',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'free slots served as 24-hour date-times in a text dump, listed as 12-hour ranges with the meridiem written once or twice',
    kind: 'clean',
    note: 'Each range is built from a served start and end: 13:45:00 is "1:45 PM", and the "1:00" of "1:00-1:45 PM" takes the meridiem of its end.',
    expect: [],
    ...physioBase,
    turns: [
      {
        user: 'What can I still book on 14 April 2026?',
        steps: [slotsStep],
        answer: 'On Tuesday, April 14 there are three free slots:\n- 9:30 AM – 10:15 AM with Rachel Osei (Treatment 2)\n- 1:00-1:45 PM with Rachel Osei (Treatment 2)\n- 4:30 to 5:15 PM with Marek Varga (Gym floor)\n\nShall I book one of them?',
      },
    ],
  },
  {
    name: 'uv-defect-physio-slot-range-end-unserved',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a 12-hour slot range whose end no slot has (10:45 for a served 10:15)',
    kind: 'defect',
    note: 'The start is served; the end 10:45 is in neither reading (10:45, 22:45) of any served time. Only the end is the finding, not the range as a token.',
    expect: [{ check: 'unsupported-value', value: '10:45 AM' }],
    ...physioBase,
    turns: [{ user: 'Is there a morning slot on 14 April 2026?', steps: [slotsStep], answer: 'Yes: 9:30 AM – 10:45 AM with Rachel Osei in Treatment 2 (slot HP-5531).' }],
  },
  {
    name: 'uv-clean-physio-gap-hhmm',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'the time between two served appointments given in the HH:MM form the user asked for',
    kind: 'clean',
    note: 'The rehab session ends at 10:15 and the scan starts at 11:45: 01:30 is the difference of two served times, a derivation, not a time of day.',
    expect: [],
    ...physioBase,
    turns: [
      {
        user: 'On 2026-04-14, how much time do I have between the end of my physio session and my scan? Please answer as HH:MM.',
        steps: [appointmentsStep],
        answer: 'Your shoulder rehab ends at 10:15 and the ultrasound scan at Quayside Imaging starts at 11:45, so you have 01:30 in between.',
      },
    ],
  },
  {
    name: 'uv-clean-gym-class-ranges-24h',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'class times served as ISO date-times, given as 24-hour ranges in a table',
    kind: 'clean',
    note: 'Every range end is a served start or end time, in 24-hour form without its seconds.',
    expect: [],
    ...gymBase,
    turns: [
      {
        user: 'Which classes run on Wednesday 2026-05-06, and are there spots left?',
        steps: [classesStep],
        answer: '| Class | Time | Spots left |\n|---|---|---|\n| Bouldering basics (CX-3108) | 10:00–11:30 | 4 |\n| Mobility for climbers (CX-3115) | 18:00–18:50 | 9 |\n| Lead climbing course (CX-3112) | 19:00–21:00 | 2 |',
      },
    ],
  },
  {
    name: 'uv-defect-gym-class-time-unserved',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a class start no class has (19:30 for a served 19:00), in a range whose end is served',
    kind: 'defect',
    note: 'The lead course runs 19:00–21:00; 19:30 is served nowhere. The served end 21:00 does not excuse the start.',
    expect: [{ check: 'unsupported-value', value: '19:30' }],
    ...gymBase,
    turns: [{ user: 'When is the lead climbing course on 2026-05-06?', steps: [classesStep], answer: 'The Lead climbing course (CX-3112) runs 19:30-21:00 on Wednesday; 2 spots are left.' }],
  },
  {
    name: 'uv-clean-gym-wall-end-from-users-length',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a booking served with its start only; the answer gives the end from the length the user asked for ("an hour and a half")',
    kind: 'clean',
    note: '14:00 + 90 minutes = 15:30: the end is the served start moved by the user\'s own words.',
    expect: [],
    ...gymBase,
    turns: [{ user: 'Book me the training wall on 2026-05-06 at 14:00 for an hour and a half.', steps: [wallStep], answer: 'Done: Training wall 2 is yours on Wednesday from 14:00 to 15:30 (booking CX-B-4471).' }],
  },
  {
    name: 'uv-defect-gym-wall-end-past-users-length',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a booking end two hours after the start when the user asked for an hour and a half',
    kind: 'defect',
    note: 'No served time moved by the length the user wrote (90 minutes) is 16:00; nothing served 16:00.',
    expect: [{ check: 'unsupported-value', value: '16:00' }],
    ...gymBase,
    turns: [{ user: 'Book me the training wall on 2026-05-06 at 14:00 for an hour and a half.', steps: [wallStep], answer: 'Done: Training wall 2 is yours on Wednesday, 14:00–16:00 (booking CX-B-4471).' }],
  },
  {
    name: 'uv-clean-physio-slots-in-french',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'free slots restated in French, as 10h30-style times and a range with "à"',
    kind: 'clean',
    note: '"de 9h30 à 10h15" and "13h00" are the served 09:30, 10:15 and 13:00 in French writing.',
    expect: [],
    ...physioBase,
    system: 'Vous êtes l\'assistant de réservation de Harbour Physio. Nous sommes le lundi 13 avril 2026. Répondez dans la langue du patient.',
    turns: [
      {
        user: 'Quels créneaux sont libres le 14 avril 2026 ?',
        steps: [slotsStep],
        answer: 'Le mardi 14 avril 2026, il reste trois créneaux : de 9h30 à 10h15 avec Rachel Osei, à 13h00 (jusqu\'à 13h45) avec Rachel Osei, et de 16h30 à 17h15 avec Marek Varga.',
      },
    ],
  },
  {
    name: 'uv-clean-hotel-ratings-and-price-ranges',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'ratings written over their scale and nightly price ranges built from two served prices',
    kind: 'clean',
    note: '"4.6/5" and "3.9 out of 5" are the served ratings; each price range joins a served minimum and maximum.',
    expect: [],
    ...hotelBase,
    turns: [
      {
        user: 'Find me a hotel in Lisbon, good reviews, not too pricey.',
        steps: [hotelsStep],
        answer: 'Here are three options in Lisbon:\n1. **Casa Lumen** — rated 4.6/5 from 1,342 reviews, €128–€214 per night\n2. **Alfama Loft Suites** — 4.3/5 (2,015 reviews), €162-€305 per night\n3. **Hotel Brisa** — 3.9 out of 5 (287 reviews), from €89 to €131 per night\n\nCasa Lumen has the best reviews for a mid-range price.',
      },
    ],
  },
  {
    name: 'uv-defect-hotel-rating-unserved',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a rating over its scale that no hotel has (4.8/5 for a served 4.6)',
    kind: 'defect',
    note: 'No served rating is 4.8 and none rounds to it; the scale 5 is not what is wrong, the rating is.',
    expect: [{ check: 'unsupported-value', value: '4.8/5' }],
    ...hotelBase,
    turns: [{ user: 'How well rated is Casa Lumen in Lisbon?', steps: [hotelsStep], answer: 'Casa Lumen is excellently rated: 4.8/5 from 1,342 reviews, with rooms from €128 a night.' }],
  },
  {
    name: 'uv-defect-hotel-week-range-end-unserved',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: "a week's price range whose upper end no rate has (€1,690 for a served 1498.0)",
    kind: 'defect',
    note: 'The lower end is served (896.0); 1,690 is neither served nor a rounding or bounded sum of served numbers.',
    expect: [{ check: 'unsupported-value', value: '1,690' }],
    ...hotelBase,
    turns: [
      {
        user: 'What would a week at Casa Lumen in Lisbon cost?',
        steps: [hotelsStep, { calls: [{ name: 'weekly_rates', args: { hotel: 'Casa Lumen' }, result: WEEKLY }] }],
        answer: 'Seven nights at Casa Lumen come to €896–€1,690 depending on the room, plus a €35 cleaning fee.',
      },
    ],
  },
  {
    name: 'uv-clean-kayak-notice-hour-and-folded-date',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a departure the guide wrote as "8 AM" restated as 08:00, and a date whose month name the notice folded onto the next line restated as ISO with its "1 PM" as 13:00',
    kind: 'clean',
    note: '"8 AM" is 08:00; "June\\n    14th 2026 at 1 PM" is 2026-06-14 13:00 — a line fold does not make it another date.',
    expect: [],
    ...kayakBase,
    turns: [
      {
        user: 'When and where does TK-SUN-0608 start? And when is the family picnic paddle now? Give dates as YYYY-MM-DD HH:MM.',
        steps: [noticeStep],
        answer: 'The Sunrise Paddle TK-SUN-0608 departs at 08:00 from Pier 3 (not Pier 5). The family picnic paddle is now on 2026-06-14 13:00, from the same pier.',
      },
    ],
  },
  {
    name: 'uv-defect-kayak-time-from-own-prose',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a departure time the model first wrote itself from memory, then repeated after a notice that says 8 AM',
    kind: 'defect',
    note: 'The model said 7:30 AM in its first answer, which the tour list does not hold (a finding there: nothing served it); the notice it then read says 8 AM. Its earlier prose is not a source: 07:30 in the second answer is a finding too (assistant-only).',
    expect: [
      { check: 'unsupported-value', value: '7:30 AM' },
      { check: 'unsupported-value', value: '07:30' },
    ],
    ...kayakBase,
    turns: [
      { user: 'Roughly when do the sunrise tours leave?', steps: [toursStep], answer: 'The Sunrise Paddle (TK-SUN-0608) is a 3-hour beginner tour; sunrise tours usually leave at 7:30 AM so you are on the water at first light. I can check the notice for you.' },
      { user: 'Please check TK-SUN-0608.', steps: [noticeStep], answer: 'TK-SUN-0608 leaves from Pier 3 at 07:30, and you are back around 11.' },
    ],
  },
];
