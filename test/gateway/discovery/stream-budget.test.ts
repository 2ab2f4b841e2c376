// The stream limits of frontend-mcp.md §3.1: bytes, and the count and rate of Server-Sent Events.
import { expect, test } from 'bun:test';
import { DEFAULT_STREAM_LIMITS, eventStreamMeter, MAX_RESPONSE_EVENTS, MAX_WINDOW_EVENTS, responseMeter, type StreamLimits } from '../../../src/gateway/discovery/stream-budget.ts';
import { fakeClock } from '../gateway-fixtures.ts';

const encoder = new TextEncoder();
const events = (count: number, separator = '\n\n'): Uint8Array => encoder.encode(`data: {}${separator}`.repeat(count));

function small(overrides: Partial<StreamLimits> = {}): StreamLimits {
  return { ...DEFAULT_STREAM_LIMITS, responseEvents: 3, windowEvents: 3, windowBytes: 1000, eventBytes: 20, windowMs: 60_000, ...overrides };
}

test('responseMeter() allows exactly responseEvents events and cuts at the next one, across chunk boundaries', () => {
  const meter = responseMeter(small(), true);
  expect(meter(encoder.encode('data: {}\n\ndata: {}\n'))).toBe(false);
  expect(meter(encoder.encode('\ndata: {}\r\n\r'))).toBe(false);
  expect(meter(encoder.encode('\n'))).toBe(false);
  expect(meter(encoder.encode(': comment\r\r'))).toBe(true);
});

test('responseMeter() does not count blank lines without content as events', () => {
  const meter = responseMeter(small(), true);
  expect(meter(encoder.encode('\n\n\n\n\r\n\r\n\r\r'.repeat(100)))).toBe(false);
});

test('responseMeter() counts no events in a JSON body, only bytes', () => {
  expect(responseMeter(small(), false)(events(10))).toBe(false);
  expect(responseMeter(small({ responseBytes: 10 }), false)(encoder.encode('x'.repeat(11)))).toBe(true);
});

test('responseMeter() with the defaults cuts the 1001st event', () => {
  const meter = responseMeter(DEFAULT_STREAM_LIMITS, true);
  expect(MAX_RESPONSE_EVENTS).toBe(1000);
  expect(meter(events(1000))).toBe(false);
  expect(meter(events(1))).toBe(true);
});

test('eventStreamMeter() cuts one event past eventBytes while it grows, and resets at each event', () => {
  const meter = eventStreamMeter(small({ windowEvents: 100 }));
  expect(meter(encoder.encode('data: 0123456789\n\n'))).toBe(false);
  expect(meter(encoder.encode('data: 0123456789\n\n'))).toBe(false);
  expect(meter(encoder.encode('data: 0123456789abcd'))).toBe(false);
  expect(meter(encoder.encode('e'))).toBe(true);
});

test('eventStreamMeter() allows windowEvents events per window and cuts the next within the same window', () => {
  const clock = fakeClock();
  const meter = eventStreamMeter(small({ now: clock.now }));
  expect(meter(events(3))).toBe(false);
  clock.advance(59_999);
  expect(meter(events(1))).toBe(true);
});

test('eventStreamMeter() starts a fresh window after windowMs, so a slow trickle is never cut', () => {
  const clock = fakeClock();
  const meter = eventStreamMeter(small({ now: clock.now }));
  for (let window = 0; window < 50; window++) {
    expect(meter(events(3))).toBe(false);
    clock.advance(60_000);
  }
});

test('eventStreamMeter() cuts a window past windowBytes even without any event (a flood of blank lines)', () => {
  const clock = fakeClock();
  const meter = eventStreamMeter(small({ now: clock.now }));
  expect(meter(encoder.encode('\n'.repeat(1000)))).toBe(false);
  expect(meter(encoder.encode('\n'))).toBe(true);
});

test('eventStreamMeter() with the defaults cuts the 1001st event of a minute', () => {
  const clock = fakeClock();
  const meter = eventStreamMeter({ ...DEFAULT_STREAM_LIMITS, now: clock.now });
  expect(MAX_WINDOW_EVENTS).toBe(1000);
  expect(meter(events(1000))).toBe(false);
  expect(meter(events(1))).toBe(true);
});
