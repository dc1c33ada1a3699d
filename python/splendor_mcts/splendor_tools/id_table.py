"""The splendor-tools referee's card and noble ids in terms of ours (generated: do not edit).

Written by tools/derive_splendor_tools_ids.py from the referee's cards.csv and nobles.csv and
our data/splendor/cards.csv and nobles.csv, matched by level, cost, bonus colour and points
(cards) and by requirement (nobles). Index i holds their id i + 1. The digests are the first
12 hex digits of the SHA-256 of each of their rows' facts in the script's normal form
(``card_fact``, ``noble_fact``), for checking the map against their data without a copy of it.
"""

# their card id - 1 -> our card id
CARD_IDS = (
    31, 17, 9, 6, 35, 25, 23, 12, 1, 34, 32, 24, 16, 8, 40,
    28, 19, 10, 4, 38, 27, 20, 13, 2, 36, 30, 21, 14, 3, 37,
    29, 18, 15, 5, 39, 26, 22, 11, 7, 33, 61, 55, 49, 43, 69,
    64, 58, 52, 46, 70, 63, 56, 51, 44, 67, 62, 57, 50, 45, 68,
    60, 53, 47, 41, 66, 59, 54, 48, 42, 65, 84, 80, 77, 72, 88,
    86, 82, 78, 74, 90, 85, 81, 76, 73, 89, 83, 79, 75, 71, 87,
)

# their noble id - 1 -> our noble id
NOBLE_IDS = (
    4, 3, 1, 2, 5, 9, 6, 7, 8, 10,
)

CARD_DIGESTS = (
    '29b5f587d130', 'dc2ec8911844', 'f86879ff1abf', '12b140b4d88a', '51c6c713a828', '703154e7e90f',
    '51196daad526', '5becb17a58d9', '932b41854217', '9a1006a7f0c7', '26984610ba70', '4fbb72e9b045',
    '81b330124b08', '8d6b63e45d72', 'c8fc94727663', '9f50470245bf', '4884b52ecc37', '9aef367aff34',
    'b2d3274cb053', '4792486399b2', '323dc57e7e4e', 'e9d872e7d8bf', '655de869c7e0', '06ddb2b20053',
    '3fef294c85e4', '4738487ee228', '787de6a968d5', 'ce60c5e54fa0', 'aff341ebbc3c', '80b73993cc87',
    '92e762a50ac6', '813237c43bc3', 'fa0da2b34ac1', '0ccda0024c2f', '86a26555bf99', 'aa481f3be8b3',
    '8a7ff5297963', 'd054e7ea1055', '8cb73bb1847a', '5fa49c4bb7fa', '3cbd8a70cb65', '825db0ee34ed',
    '9bf6f7a0d7bb', '84bd5918aa0f', 'd24b8421b1b1', 'bfece3bc0343', 'b78d9f6ab8ee', '2c9e7024d72d',
    'fbcc1097b576', '8ee109003415', '4164bd4cea62', '1ab486281894', '6d2ef404c008', 'cab27c6745c8',
    '5da3dc112c89', '4d2c8b1321b9', 'fc64ce8b11eb', '209b3053326d', '06940a39a27f', '8c62bcb0a29e',
    'd957eb1a3d67', 'b57c6e78f1e7', '40b7ba54b1b9', '6ceed1825e0a', 'ce6b171a68b7', 'a95ca034480e',
    'b0a77e5e6978', '3f01d846bc61', '4dad130655cc', '9714e010632d', '5603dd4b2815', '8d8fd8766113',
    '13414d0f49c9', 'a52c68271fc5', '494918afa109', 'e09aa362870f', '7e3ae192132c', '7bed5890c611',
    'babed1b1365d', '09316af53d83', 'c5f9aad6ab73', 'cbb5379f599d', 'cbcc46a31895', '5602bd560230',
    '3acf1ee6a753', '541dae790a68', '1b5f1c209093', 'e2cbdd3b5b2e', 'dbe5bf039f7e', 'fef010c3c9bb',
)

NOBLE_DIGESTS = (
    '606c9eea696a', 'ea71c17dfa66', '7c799fc40f5c', 'e0049ba14974', '571a7ef9790d',
    'fefb667f0025', '468e17a8fa57', '5b7ca8ac5668', 'b6afc0a74476', '70e54bbc5587',
)
