from enum import StrEnum

class NewFileAttachmentAnnotationIcon(StrEnum):
    GRAPH = "Graph"
    GRAPHPUSHPIN = "GraphPushPin"
    PAPERCLIP = "Paperclip"
    PAPERCLIPTAG = "PaperclipTag"
    PUSHPIN = "PushPin"
    TAG = "Tag"

    def __str__(self) -> str:
        return str(self.value)
