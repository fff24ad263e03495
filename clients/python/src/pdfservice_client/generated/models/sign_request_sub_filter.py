from enum import StrEnum

class SignRequestSubFilter(StrEnum):
    ADBE_PKCS7_DETACHED = "adbe.pkcs7.detached"
    ETSI_CADES_DETACHED = "ETSI.CAdES.detached"

    def __str__(self) -> str:
        return str(self.value)
