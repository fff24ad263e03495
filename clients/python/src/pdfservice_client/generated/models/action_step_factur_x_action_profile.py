from enum import StrEnum

class ActionStepFacturXActionProfile(StrEnum):
    BASIC = "basic"
    BASICWL = "basicwl"
    EN16931 = "en16931"
    EXTENDED = "extended"
    MINIMUM = "minimum"
    XRECHNUNG = "xrechnung"

    def __str__(self) -> str:
        return str(self.value)
