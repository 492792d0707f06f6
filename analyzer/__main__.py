from analyzer.entry import main

if __name__ == "__main__":  # guarded: Dask's local workers re-import the main module
    main()
