// API_CATALOG_TIMEOUT_MS beyond what a timer can wait (2^31-1 ms) is refused at start like any other bad value
// (audit of execute_tool against odd upstreams, item 5): Node's setTimeout fires a longer delay after 1 ms, so every
// call would "time out" at once. The other millisecond values fed to timers are derived from bounded options.
import { describe, expect, test } from 'vitest';
import { parseConfigFile, resolveServerConfig } from '../../src/config.js';
import { isAppError } from '../../src/errors.js';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return isAppError(e) ? `${e.code}: ${e.message}` : `not an AppError: ${String(e)}`;
  }
  return 'no error';
}

describe('the upstream timeout has a maximum', () => {
  test('2^31 ms and more are refused with CONFIG_INVALID naming the range', () => {
    for (const value of ['2147483648', '99999999999']) {
      expect(messageOf(() => resolveServerConfig({}, { API_CATALOG_TIMEOUT_MS: value }))).toBe(`CONFIG_INVALID: config: API_CATALOG_TIMEOUT_MS must be an integer from 1 to 2147483647, got "${value}"`);
    }
    expect(messageOf(() => parseConfigFile(JSON.stringify({ serve: { timeoutMs: 2 ** 31 } }), 'ops.json'))).toBe('CONFIG_INVALID: config file ops.json: serve.timeoutMs must be an integer from 1 to 2147483647');
  });

  test('2^31-1 ms is the largest accepted', () => {
    expect(resolveServerConfig({}, { API_CATALOG_TIMEOUT_MS: '2147483647' }).timeouts.totalMs).toBe(2147483647);
  });
});
