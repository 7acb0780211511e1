"""The lab: research tooling that the page and the board reader never run.

It imports the runtime packages (``automa``, ``vision``, ``calibration``, ``web``) and is
never imported by them (``tests/test_architecture.py``); it ships in the repository, not
in an installed copy. The ``automa-vision`` commands it registers (``synth``, ``eval``,
``eval-sets``, ``train``, ``train-heights``, ``train-drops``) exist where it can be imported.

- ``synth/``: the synthetic photo renderer, the models' training data and the test images;
- ``training/``: training, fine-tuning, soups, quantisation and calibration of the models
  in ``models/`` (needs the ``train`` extra: torch, onnx);
- evaluation: ``evaluate`` and ``eval_cli`` (``eval``, ``eval-sets``), ``heldout_sets``
  (+ ``.json``), ``mistakes_sheet``, ``truth_view``, ``elevation_cues``, ``reader_eval``,
  ``registration_eval``, ``stability_eval``, ``reference_eval``, ``turn_eval``,
  ``height_limits``, ``vision_bench``; ``make_demo_replay`` makes the page's demo replay.
"""
