from palmish.cli import main

raise SystemExit(main())
