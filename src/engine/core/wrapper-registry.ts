import * as mupdf from 'mupdf';

/**
 * mupdf.js registers every wrapper it makes (a PDFObject, a Font...) with its class's FinalizationRegistry, kept in
 * the class's static `_finalizer`; code that makes hundreds of thousands of short-lived wrappers in one synchronous
 * pass (text walks, compare's page digests) pays more for those registrations and their collection than for its
 * work. `unregistered` hands the wrappers a class makes while `work` runs to `onMade` instead, which owns their
 * release. The registry is put behind a switch once per class: swapping the property per call would deoptimise every
 * wrapper's constructor. `work` is synchronous, so nothing else makes a wrapper of that class meanwhile. Should
 * mupdf.js stop using `_finalizer`, the switch is never called and the wrappers are registered as before.
 */

interface Registry {
  register(target: object, held: unknown, token?: object): void;
  unregister(token: object): boolean;
}

interface WrapperClass {
  _finalizer?: Registry;
  _drop: (pointer: number) => void;
}

/** Each switched class's current receiver of the wrappers it makes; null: registered as mupdf.js does. */
const receivers = new Map<WrapperClass, ((wrapper: object) => void) | null>();

export function unregistered<T>(wrapperClass: typeof mupdf.PDFObject | typeof mupdf.Font, onMade: (wrapper: object) => void, work: () => T): T {
  const cls = wrapperClass as unknown as WrapperClass;
  if (!receivers.has(cls)) {
    const real: Registry = cls._finalizer ?? new FinalizationRegistry(cls._drop);
    cls._finalizer = {
      register: (target, held, token) => {
        const receive = receivers.get(cls);
        if (receive) receive(target);
        else real.register(target, held, token);
      },
      unregister: (token) => real.unregister(token),
    };
    receivers.set(cls, null);
  }
  const previous = receivers.get(cls)!;
  receivers.set(cls, onMade);
  try {
    return work();
  } finally {
    receivers.set(cls, previous);
  }
}
