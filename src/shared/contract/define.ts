import type { z } from 'zod';

/** A request the renderer (or any client) can make: validated params in, validated result out. */
export interface RequestDef<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  /** One sentence for readers of the contract and for `--help`-style listings. */
  description: string;
  params: P;
  result: R;
}

/** An event the engine pushes to every connected client. */
export interface EventDef<P extends z.ZodType = z.ZodType> {
  description: string;
  payload: P;
}

/** Identity helpers that keep literal types while checking the shape. */
export const defineRequests = <T extends Record<string, RequestDef>>(defs: T): T => defs;
export const defineEvents = <T extends Record<string, EventDef>>(defs: T): T => defs;
