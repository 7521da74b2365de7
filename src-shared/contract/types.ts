import type { z } from 'zod';

/** The argument type a method's schema accepts (before defaults are applied). */
export type In<S extends z.ZodType> = z.input<S>;
