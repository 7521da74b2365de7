/**
 * The connection id of the embedded store. Apart from connections.ts (which holds the zod schemas)
 * so the renderer can name it without bundling the validation library.
 */
export const LOCAL_CONNECTION_ID = 'local';
