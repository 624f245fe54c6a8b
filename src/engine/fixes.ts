/** The fixes module (./fixes/): kept as an entry point for the modules that import it from here. */
export * from './fixes/index.ts';
