/** Render tasks: a page drawn as an image. */
import { renderPage } from './render.js';

export const renderTasks = { renderPage };
