from enum import StrEnum

class NewDocumentAttachmentRelationship(StrEnum):
    ALTERNATIVE = "Alternative"
    DATA = "Data"
    ENCRYPTEDPAYLOAD = "EncryptedPayload"
    FORMDATA = "FormData"
    SCHEMA = "Schema"
    SOURCE = "Source"
    SUPPLEMENT = "Supplement"
    UNSPECIFIED = "Unspecified"

    def __str__(self) -> str:
        return str(self.value)
