// Everything public of env/: the rules core and the Gym layer.
export * from './rules/index.js';
export * from './gym/index.js';
