"""ElGamal under a joint key (Barnett-Smart), built whole and measured; not the scheme the table uses.

Why the masking scheme (:mod:`net.sealed.masking`) was chosen over it is in
``docs/sealed-design.md``: chiefly, anyone can encrypt a card of their choosing
under the joint key, so the last participant to shuffle can replace the deck
with one in an order it knows and keep every at-once check happy (the sums,
the points, the cards); only the round's audit catches it. Without
zero-knowledge shuffle proofs that is a full loss of privacy for the round.
Its strengths, kept here for a later version with shuffle proofs: passes
that only add (re-randomisers made ahead), shares proven against the public
ciphertext.
"""

from .audit import audit_round
from .epoch import Epoch, open_public
from .participant import Participant
from .scheme import Deck, Pass, Share

__all__ = ["Deck", "Epoch", "Participant", "Pass", "Share", "audit_round", "open_public"]
