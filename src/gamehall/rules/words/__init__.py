"""Word games (duplicate, scrabble, boggle): the shared foundation (spec note ``jduplicate.md``).

- :mod:`.letters`: letter sets EN and FR (counts, values, vowels), racks and tiles;
- :mod:`.board`: the board layout (premium squares, start square) and board contents;
- :mod:`.lexicon`: word lists (bundled or a user file), normalisation, the cached GADDAG;
- :mod:`.moves`: moves, the placement referee (:func:`~.moves.validate_move`) and scoring;
- :mod:`.movegen`: every legal move of a rack (:func:`~.movegen.generate_moves`) and the top
  (:func:`~.movegen.best_move`), built on :mod:`.linesearch`, :mod:`.bounds`,
  :mod:`.topsearch`, :mod:`.anagrams` and :mod:`.gaddag`.

Only :mod:`.lexicon` reads files (the bundled lists in ``data/`` and its cache); everything else
is pure.
"""
