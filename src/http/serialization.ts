import { SerializerSelector, type SerializerCompiler } from '@fastify/fast-json-stringify-compiler';

type Serializer = ReturnType<SerializerCompiler>;

/** Every response serializer made so far, compiled or not (compileEverySerializer). */
const declared: (() => Serializer)[] = [];

/**
 * Fastify's own serializer factory (fast-json-stringify), with each route's serializer compiled when its first answer
 * needs it rather than at start: the code generation for every response schema was about a tenth of a service start's
 * CPU, paid by every test file that starts one, and a process answers on a few of its routes only. The validators are
 * compiled on first use likewise (src/validation.ts); test/api/startup.test.ts compiles all of both.
 */
export function lazySerializers(...args: Parameters<ReturnType<typeof SerializerSelector>>): SerializerCompiler {
  const compile = SerializerSelector()(...args);
  return (route) => {
    let serializer: Serializer | undefined;
    const compiled = () => (serializer ??= compile(route));
    declared.push(compiled);
    return (doc) => compiled()(doc);
  };
}

/** Compiles every response serializer made so far: a schema fast-json-stringify refuses throws here (a test's check). */
export function compileEverySerializer(): number {
  for (const compiled of declared) compiled();
  return declared.length;
}
