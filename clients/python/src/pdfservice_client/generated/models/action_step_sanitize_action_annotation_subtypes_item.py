from enum import StrEnum

class ActionStepSanitizeActionAnnotationSubtypesItem(StrEnum):
    CARET = "Caret"
    CIRCLE = "Circle"
    FILEATTACHMENT = "FileAttachment"
    FREETEXT = "FreeText"
    HIGHLIGHT = "Highlight"
    INK = "Ink"
    LINE = "Line"
    LINK = "Link"
    MOVIE = "Movie"
    POLYGON = "Polygon"
    POLYLINE = "PolyLine"
    POPUP = "Popup"
    PRINTERMARK = "PrinterMark"
    PROJECTION = "Projection"
    REDACT = "Redact"
    RICHMEDIA = "RichMedia"
    SCREEN = "Screen"
    SOUND = "Sound"
    SQUARE = "Square"
    SQUIGGLY = "Squiggly"
    STAMP = "Stamp"
    STRIKEOUT = "StrikeOut"
    TEXT = "Text"
    TRAPNET = "TrapNet"
    UNDERLINE = "Underline"
    VALUE_23 = "3D"
    WATERMARK = "Watermark"

    def __str__(self) -> str:
        return str(self.value)
