def main(argv=None):\n    return 0
