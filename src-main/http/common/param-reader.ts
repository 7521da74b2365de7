/**
 * Reads a request's parameters one after the other and keeps the first that fails to parse (its
 * field takes a neutral value), so an operation is always whole: the executor raises the failure
 * once the caller is known to be allowed, as the handlers did when they read the parameters
 * themselves. `known` says which errors are the protocol's refusals; anything else is a bug and
 * is thrown at once.
 */
export class ParamReader<E extends Error> {
  invalid: E | undefined;

  constructor(private readonly known: (err: unknown) => err is E) {}

  read<T>(parse: () => T, fallback: T): T {
    if (this.invalid) return fallback;
    try {
      return parse();
    } catch (err) {
      if (!this.known(err)) throw err;
      this.invalid = err;
      return fallback;
    }
  }

  /** A refusal found without parsing anything (a header that must not be there). */
  fail(err: E): void {
    this.invalid ??= err;
  }
}
