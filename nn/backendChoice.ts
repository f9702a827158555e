// The --backend choice, apart from tfjs itself so that the CLI can offer it without loading tfjs.
import { InvalidArgumentError, Option } from 'commander';

export const BACKEND_CHOICES = ['auto', 'node', 'wasm', 'cpu'] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];

export function parseBackendChoice(value: string): BackendChoice {
  if ((BACKEND_CHOICES as readonly string[]).includes(value)) return value as BackendChoice;
  throw new InvalidArgumentError(`expected one of ${BACKEND_CHOICES.join(', ')}, got '${value}'`);
}

/** The shared `--backend` option for every command that uses tfjs. */
export function backendOption(): Option {
  return new Option('--backend <name>', 'tfjs backend: auto tries node, then wasm, then cpu').choices(BACKEND_CHOICES).default('auto');
}
