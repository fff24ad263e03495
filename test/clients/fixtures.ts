import path from 'node:path';
import { REPO } from '../helpers/doc-examples.js';

/** What the client tests share (test/clients/): where the packages are, and a small image to upload. */
export { REPO };
export const CLIENTS = path.join(REPO, 'clients');
/** A 16x16 PNG (the README's logo.png). */
export const PNG_16 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAA1BMVEXMMzN0dFbYAAAADUlEQVQY02NgGAXIAAABEAAB7JfjegAAAABJRU5ErkJggg==', 'base64');
