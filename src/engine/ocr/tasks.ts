/** OCR tasks: the pages to recognise, a page rendered for Tesseract, and the recognised text layers added to the document. */
import { addOcrLayers, ocrSurvey } from './layer.js';
import { renderForOcr } from './render.js';

export const ocrTasks = { ocrSurvey, renderForOcr, addOcrLayers };
