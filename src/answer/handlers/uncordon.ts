/**
 * "what if general-c-2 is uncordoned": parsed as its own question (no longer read as a drain), answered with
 * help until the change machinery simulates an uncordon (issue 15).
 */
import { help } from './help.ts';
import type { Handler, QuestionOf } from './context.ts';

export const uncordon: Handler<QuestionOf<'uncordon'>> = (_q, env) => help({ type: 'help' }, env);
