// The AppError a synchronous call throws (the test fails when it throws nothing or something else).
import { expect } from 'vitest';
import { AppError } from '../../src/errors.js';

export function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an error');
}
